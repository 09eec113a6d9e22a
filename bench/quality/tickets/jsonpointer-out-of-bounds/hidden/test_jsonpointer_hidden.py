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


class WrongInputTests(unittest.TestCase):

    def test_oob(self):
        # this list does not have 10 members
        doc = [0, 1, 2]
        self.assertRaises(JsonPointerException, resolve_pointer, doc, '/10')


class SetTests(unittest.TestCase):

    def test_set_create_invalid(self):
        doc = {"foo": [1], "s": "str"}
        # indices past the end of a list can't be created
        self.assertRaises(JsonPointerException, set_pointer, doc,
                          "/foo/5/bar", 1, create=True)
        # nothing can be created inside a string
        self.assertRaises(JsonPointerException, set_pointer, doc,
                          "/s/bar/baz", 1, create=True)
        self.assertEqual(doc, {"foo": [1], "s": "str"})


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(jsonpointer))
    tests.addTests(doctest.DocFileSuite('doc/tutorial.rst'))
    return tests
