"""`ktir-opt`: xdsl-opt with every ktir dialect and pass, and located diagnostics.

Behaves like `xdsl-opt` (`-p`, `--split-input-file`, `--verify-diagnostics`,
`--print-op-generic`, `-o`, ...). What it adds: every parse, verify or pass error is printed as
`file:line:col: error: ...` with the offending line and a caret and exits 1 (never a Python
traceback; set KTIR_TRACEBACK=1 to see one for an internal error), and `--help` lists the ktir
dialects and passes.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import traceback
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from ktir.errors import KtirDiagnostic, internal_error
from ktir_tools import registry
from ktir_tools.process import begin, leave

SPLIT_MARKER = re.compile(r"^[ \t]*// -----[ \t]*$", re.MULTILINE)


class UsageError(Exception):
    """A bad command line (unknown pass, missing file): one line, exit 1."""


def split_chunks(text: str) -> list[tuple[str, int]]:
    """Split on lines that read `// -----`; returns (chunk, line offset) pairs."""
    chunks: list[tuple[str, int]] = []
    start, line = 0, 0
    for m in SPLIT_MARKER.finditer(text):
        chunk = text[start:m.start()]
        chunks.append((chunk, line))
        line += chunk.count("\n") + 1
        start = m.end() + 1 if m.end() < len(text) and text[m.end()] == "\n" else m.end()
    chunks.append((text[start:], line))
    return chunks


class KtirOptMain(xDSLOptMain):
    version_format = "ktir-opt (xdsl {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description=(__doc__ or "").split("\n")[0].strip("`"), args=args)

    def register_all_dialects(self) -> None:
        from ktir.context import KtirContext

        self.ctx = KtirContext()
        super().register_all_dialects()
        known = set(self.ctx.registered_dialect_names)
        for name, factory in registry.all_dialects().items():
            if name not in known:  # running from a source tree without the entry point
                self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in registry.all_passes().items():
            self.available_passes.setdefault(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        ours = sorted(registry.all_passes())
        arg_parser.add_argument("--max-input-bytes", type=int, default=None,
                                help="refuse an input larger than this (default 64 MiB)")
        arg_parser.add_argument("--max-elements", type=int, default=None,
                                help="refuse a constant or tensor of more elements than this "
                                "(default 2^28)")
        arg_parser.epilog = (
            "ktir dialects: " + ", ".join(sorted(registry.all_dialects())) + "\n"
            "ktir passes:   " + (", ".join(ours) if ours else "(none registered)") + "\n\n"
            "Errors are reported as FILE:LINE:COL with the source line and exit 1.\n"
            "--verify-diagnostics prints the error on stdout and exits 0 (for lit tests).")

    def setup_pipeline(self) -> None:
        try:
            self.pipeline = PassPipeline.parse_spec(self.available_passes, self.args.passes,
                                                    self._between_passes)
        except (Exception, ArgSpecParseError) as e:  # the latter is a BaseException in xDSL
            raise UsageError(f"bad pass pipeline '{self.args.passes}': {e}") from None

    def _between_passes(self, previous: ModulePass | None, module: ModuleOp,
                        following: ModulePass | None) -> None:
        if previous is not None and not self.args.disable_verify:
            from ktir.diagnostics import verify_located

            verify_located(module, self.ctx)
        if previous and following and self.args.print_between_passes:
            print(f"// IR after {previous.name}:\n{module!s}\n", file=sys.stderr)

    def _read_input(self) -> tuple[str, str]:
        from ktir.limits import CURRENT, OPTIONS, read_limited

        name = self.args.input_file or "<stdin>"
        try:
            if self.args.input_file is None:
                data = sys.stdin.buffer.read(CURRENT.input_bytes + 1)
                if len(data) > CURRENT.input_bytes:
                    raise UsageError(f"the input on stdin is larger than the limit of "
                                     f"{CURRENT.input_bytes:,} bytes (raise it with "
                                     f"{OPTIONS['input_bytes']})")
            elif os.path.isdir(self.args.input_file):
                raise UsageError(f"cannot read '{name}': it is a directory")
            else:
                data = read_limited(self.args.input_file)
        except OSError as e:
            raise UsageError(f"cannot read '{name}': {e.strerror}") from None
        try:
            return name, data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UsageError(f"'{name}' is not UTF-8 text (byte {e.start})") from None

    def run(self) -> int:  # type: ignore[override]
        # imported here, not at start-up: `--help` needs none of the dialects it loads
        from ktir.diagnostics import parse_text, register_source, verify_located
        from ktir.limits import set_limits

        set_limits(input_bytes=self.args.max_input_bytes, elements=self.args.max_elements)
        name, text = self._read_input()
        register_source(name, text)
        chunks = split_chunks(text) if self.args.split_input_file else [(text, 0)]
        out = sys.stdout if self.args.output_file is None else self._open_output()
        status = 0
        try:
            for i, (chunk, offset) in enumerate(chunks):
                if i > 0:
                    out.write("// -----\n")
                try:
                    # like mlir-opt, an input of only comments is an empty module
                    module = parse_text(self.ctx, chunk, name, offset, register=False,
                                        allow_empty=True)
                    if not self.args.disable_verify:
                        verify_located(module, self.ctx)
                    self._apply(module)
                    out.write(self.output_resulting_program(module))
                except KtirDiagnostic as d:
                    if self.args.verify_diagnostics or self.args.parsing_diagnostics:
                        print(d.text)
                        continue
                    print(d.text, file=sys.stderr)
                    status = 1
                    break
                out.flush()
            if out is not sys.stdout:
                out.close()
        except OSError as e:
            raise UsageError(f"cannot write '{self.args.output_file or '<stdout>'}': "
                             f"{e.strerror}") from None
        finally:
            if out is not sys.stdout and not out.closed:
                with contextlib.suppress(OSError):
                    out.close()
        return status

    def _open_output(self):
        path = self.args.output_file
        if os.path.isdir(path):
            raise UsageError(f"cannot write '{path}': it is a directory")
        try:
            return open(path, "w")
        except OSError as e:
            raise UsageError(f"cannot write '{path}': {e.strerror}") from None

    def _apply(self, module: ModuleOp) -> None:
        try:
            self.pipeline.apply(self.ctx, module)
        except KtirDiagnostic:
            raise
        except DiagnosticException as e:
            raise KtirDiagnostic(f"error: {str(e).splitlines()[0]}") from None
        except Exception as e:
            if os.environ.get("KTIR_TRACEBACK"):
                traceback.print_exc()
            raise KtirDiagnostic(internal_error("ktir-opt", e)) from None


def main(argv: Sequence[str] | None = None) -> None:
    begin(argv)
    try:
        code = KtirOptMain(argv).run()
    except UsageError as e:
        print(f"ktir-opt: error: {e}", file=sys.stderr)
        code = 1
    except KtirDiagnostic as d:
        print(d.text, file=sys.stderr)
        code = 1
    except SystemExit as e:  # argparse reports usage errors with 2; ours is 1
        code = 1 if e.code == 2 else (e.code if isinstance(e.code, int) else 1)
    except KeyboardInterrupt:
        code = 130
    except Exception as e:  # a bug, not a bad input
        if os.environ.get("KTIR_TRACEBACK"):
            traceback.print_exc()
        print(internal_error("ktir-opt", e), file=sys.stderr)
        code = 1
    leave(code, argv)


if __name__ == "__main__":
    main()
