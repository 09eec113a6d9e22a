#!/usr/bin/env python

import copy
import doctest
import io
import json
import os
import runpy
import shlex
import subprocess
import sys
import tempfile
import textwrap
import unittest
from collections import defaultdict
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

import jsonpointer
from jsonpointer import resolve_pointer, EndOfList, JsonPointerException, \
    JsonPointer, set_pointer


class DefaultDictTests(unittest.TestCase):
    """Missing members of mappings with __missing__ must stay missing (#101)"""

    def test_resolve_missing_returns_default(self):
        doc = defaultdict(dict)
        self.assertEqual(resolve_pointer(doc, '/missing', 'SENTINEL'), 'SENTINEL')
        self.assertEqual(dict(doc), {})

    def test_resolve_missing_raises(self):
        doc = defaultdict(dict)
        self.assertRaises(JsonPointerException, resolve_pointer, doc, '/missing')
        self.assertEqual(dict(doc), {})

    def test_set_without_create_raises(self):
        doc = defaultdict(dict)
        self.assertRaises(JsonPointerException, set_pointer, doc,
                          '/missing/child', 1)
        self.assertEqual(dict(doc), {})


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(jsonpointer))
    tests.addTests(doctest.DocFileSuite('doc/tutorial.rst'))
    return tests
