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


class ComparisonTests(unittest.TestCase):

    def setUp(self):
        self.ptr1 = JsonPointer("/a/b/c")
        self.ptr2 = JsonPointer("/a/b")
        self.ptr3 = JsonPointer("/b/c")

    def test_reflected_equality(self):
        for left, right in [(self.ptr1, mock.ANY), (mock.ANY, self.ptr1)]:
            with self.subTest(left=left, right=right):
                self.assertTrue(left == right)

    def test_reflected_inequality(self):
        for left, right in [(self.ptr1, mock.ANY), (mock.ANY, self.ptr1)]:
            with self.subTest(left=left, right=right):
                self.assertFalse(left != right)


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(jsonpointer))
    tests.addTests(doctest.DocFileSuite('doc/tutorial.rst'))
    return tests
