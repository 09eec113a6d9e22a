"""
Test kebabization.
"""
import pytest

import humps
