"""Pictures: text (always) and SVG, for boards of cells."""

__all__ = ["colors", "font", "html", "plot", "svg", "text"]
