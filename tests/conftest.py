"""The suite runs as CI does, with no parse cache, unless NOMIC_CACHE says otherwise.

``NOMIC_CACHE=/some/dir make test`` runs it all with the cache on (a second run then reads every large
file from it); tests/test_parsecache.py turns it on where it tests it.
"""

import os

os.environ.setdefault("NOMIC_CACHE", "off")
