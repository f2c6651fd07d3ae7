"""Pictures: text (always) and SVG, for boards of cells."""
