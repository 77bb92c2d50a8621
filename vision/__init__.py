"""fanscan.vision."""
