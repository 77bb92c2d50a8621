"""Map the repository's top-level folders onto the single ``fanscan`` import namespace.

``scoring/`` installs as ``fanscan.scoring``, ``vision/`` as ``fanscan.vision`` and so on; the
metadata lives in pyproject.toml. The mapping is computed here because setuptools' static
configuration cannot discover subpackages below a remapped folder.
"""

from setuptools import find_namespace_packages, setup

ROOTS = {
    "fanscan": "fanscan",
    "fanscan.scoring": "scoring",
    "fanscan.vision": "vision",
    "fanscan.models": "models",
    "fanscan.datasets": "datasets",
}

packages: list[str] = []
package_dir: dict[str, str] = {}
for package, folder in ROOTS.items():
    package_dir[package] = folder
    packages.append(package)
    # Namespace discovery also names the data folders (samples/, static/, maps/): setuptools
    # warns of any importable folder left out of ``packages``.
    packages += [f"{package}.{sub}" for sub in find_namespace_packages(folder, exclude=["*__pycache__*"])]

setup(packages=packages, package_dir=package_dir)
