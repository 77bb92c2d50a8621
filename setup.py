"""Map the repository's top-level folders onto the single ``fanscan`` import namespace.

``scoring/`` installs as ``fanscan.scoring``, ``vision/`` as ``fanscan.vision`` and so on; the
metadata lives in pyproject.toml. The mapping is computed here because setuptools' static
configuration cannot discover subpackages below a remapped folder.
"""

from setuptools import find_packages, setup

ROOTS = {
    "fanscan": "fanscan",
    "fanscan.scoring": "scoring",
    "fanscan.vision": "vision",
    "fanscan.models": "models",
    "fanscan.datasets": "datasets",
}
DATA_FOLDERS = (
    "fanscan.vision.samples",
    "fanscan.web.static",
    "fanscan.web.static.label",
    "fanscan.datasets.formats.maps",
    "fanscan.datasets.labels",
)
"""Folders of files the package ships (pyproject.toml's package-data), none of them imported: named
here so that setuptools takes their files without warning that an importable folder was left out
of the packages (namespace discovery instead would ship whatever a working tree holds below the
roots, a training run's checkpoints among it)."""

packages: list[str] = []
package_dir: dict[str, str] = {}
for package, folder in ROOTS.items():
    package_dir[package] = folder
    packages.append(package)
    packages += [f"{package}.{sub}" for sub in find_packages(folder)]
packages += DATA_FOLDERS

setup(packages=packages, package_dir=package_dir)
