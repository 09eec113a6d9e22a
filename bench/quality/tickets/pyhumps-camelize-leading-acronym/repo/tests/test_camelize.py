"""
Test camelization.
"""
import pytest

import humps
