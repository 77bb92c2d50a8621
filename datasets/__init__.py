"""fanscan.datasets."""
