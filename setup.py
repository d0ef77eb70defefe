"""Package layout for setuptools (everything else is in pyproject.toml).

The repository keeps the required top-level folders ``envs/``, ``agents/`` and ``training/``; they
install as subpackages of one package, ``meadowzoo`` (``meadowzoo.envs`` …), so that a user's own
``envs/`` or ``training/`` folder can never shadow them and no other distribution can overwrite
them. The package list is derived from the folders, so a new game needs no entry here.
"""

from setuptools import find_packages, setup

#: repository folder -> installed package
MAPPED = {"envs": "meadowzoo.envs", "agents": "meadowzoo.agents", "training": "meadowzoo.training"}

package_dir = {"meadowzoo": "meadowzoo"}
packages = ["meadowzoo"] + [f"meadowzoo.{name}" for name in find_packages("meadowzoo")]
for folder, package in MAPPED.items():
    package_dir[package] = folder
    packages += [package] + [f"{package}.{name}" for name in find_packages(folder)]
# folders of data files only (pyproject.toml's package-data names their files): listed as packages,
# since Python could import them as namespace packages and setuptools warns about (and may come to
# drop) data in a folder it was not told is a package
packages += ["meadowzoo.agents.trained", "meadowzoo.training.web.static"]

setup(package_dir=package_dir, packages=packages)
