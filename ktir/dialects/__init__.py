"""KTIR dialects: `ktdp` (views, tiles, loads/stores, inter-tile ops) and `spyreop`."""
