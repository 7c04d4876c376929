"""The layers of CONVENTIONS.md, enforced over the import graph: `ktir` at the bottom, then
`arch_descriptions`, the DataflowIR dialects (`spyrecode`), `scheduler` and `emulator` side by
side (neither imports the other), the application (`ktir_tools`: CLIs, compile + emulate +
check, the xDSL universe) on top. Imports inside functions count. No module takes another
package's private (`_name`) symbols or modules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ktir", "arch_descriptions", "spyrecode", "scheduler", "emulator", "ktir_tools")


def test_layer_contract_holds() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint) if lint.exists() else "lint-imports", "--no-cache"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def cross_package_private_imports() -> list[str]:
    found = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    target, names = node.module, [a.name for a in node.names]
                elif isinstance(node, ast.Import):
                    target, names = None, [a.name for a in node.names]
                else:
                    continue
                for name in names:
                    full = f"{target}.{name}" if target else name
                    if full.split(".")[0] not in PACKAGES or full.split(".")[0] == pkg:
                        continue
                    if any(_private(part) for part in full.split(".")):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {full}")
    return found


def test_no_package_imports_another_packages_private_names() -> None:
    assert cross_package_private_imports() == []
