"""Packaging hook: the built-in templates ship inside the wheel.

The templates live at the top of the repository (``templates/<game>/``, data beside ``cards/``),
but an installed pnp must find them without the repository. ``package_dir`` maps them into the
wheel as ``generator/builtin_templates``; ``generator.runtime.resources.builtin_templates_root`` finds
that copy in a wheel and the repository's folder in an editable install or a plain checkout.
Everything else about the distribution (package data included) is declared in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

BUILTIN_TEMPLATES = "generator.builtin_templates"

# every folder under templates/ is listed too (as setuptools treats any folder of a package)
TEMPLATE_FOLDERS = [BUILTIN_TEMPLATES, *(f"{BUILTIN_TEMPLATES}.{name}" for name in
                                         find_namespace_packages(where="templates"))]

setup(
    packages=[*find_namespace_packages(include=["generator", "generator.*"],
                                       exclude=["*.__pycache__"]),
              *TEMPLATE_FOLDERS],
    package_dir={BUILTIN_TEMPLATES: "templates"},
)
