"""Each repository's Python environment: dependencies read, built with uv, its one way out."""
