"""What the tests of docs/hooks/ share: the repository's root, and a hook
loaded as a module, as MkDocs loads it (from its file, not as a package).
"""

import importlib.util
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOOKS = os.path.join(REPO, "docs", "hooks")


def hook_path(name):
    """The path of docs/hooks/<name>.py."""
    return os.path.join(HOOKS, f"{name}.py")


def load_hook(name):
    """docs/hooks/<name>.py as a module named <name>_hook."""
    # Importing a hook must not leave a __pycache__ in docs/.
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location(f"{name}_hook", hook_path(name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
