#!/usr/bin/env python3
"""Runs Extra-P's own reader and default modeler on text files and prints what they
found as JSON on stdout, for `taintprof bench --modeler` and the tests that compare
with Extra-P. Run it with the Python of Extra-P's virtual environment
(`~/.cache/taintprof/extrap-4.2.5/bin/python`; scripts/setup.sh installs it).

    extrap_models.py [--values] [--no-models] [--at X,Y,Z]... FILE...

For each FILE (Extra-P's text format), read by `TextFileReader` as `extrap --text`
reads it:

    {"file": FILE, "parameters": [names], "points": [[coordinates]],
     "series": [{"callpath", "metric",
                 "values": [[repetitions as strings]] (--values; per point, in the
                           order of "points"; Python's shortest round-trip text),
                 "model": {"display": Extra-P's own string,
                           "constant": c0,
                           "terms": [{"coefficient": c,
                                      "factors": [{"parameter": index,
                                                   "exponent": i,
                                                   "log_exponent": j}]}]},
                 "at": [Extra-P's prediction at each --at point]}]}

The output is one object {"extrap": version, "files": [...]}. A model is Extra-P's
default modeler's (`ModelGenerator(experiment).model_all()`: the multi-parameter
modeler over the basic single-parameter modeler, measure: mean). Its terms are read
from the function Extra-P built (a MultiParameterFunction of MultiParameterTerms, each
pairing parameters with CompoundTerms of polynomial and logarithm SimpleTerms; the
term's coefficient is the product of the MultiParameterTerm's and its CompoundTerms'
coefficients), and checked: the model rebuilt from them must equal Extra-P's own
evaluation at every measured point and every --at point (relative 1e-9), else the
script fails rather than report a wrong model.
"""

import json
import math
import sys
import warnings


def fail(msg):
    print(f"extrap_models.py: {msg}", file=sys.stderr)
    sys.exit(2)


try:
    import extrap
    from extrap.entities.functions import ConstantFunction
    from extrap.entities.terms import CompoundTerm, MultiParameterTerm
    from extrap.fileio.file_reader.text_file_reader import TextFileReader
    from extrap.modelers.model_generator import ModelGenerator
except ImportError as e:  # pragma: no cover
    fail(f"cannot import Extra-P ({e}): install the PyPI package extrap 4.2.5 (scripts/setup.sh)")


def factors_of(param, compound):
    """The factors of one CompoundTerm of parameter `param`: one per parameter,
    exponents summed."""
    exponent, log_exponent = 0.0, 0.0
    for s in compound.simple_terms:
        if s.term_type == "polynomial":
            exponent += float(s.exponent)
        elif s.term_type == "logarithm":
            log_exponent += float(s.exponent)
        else:
            fail(f"unknown simple term type {s.term_type!r}")
    return {"parameter": param, "exponent": exponent, "log_exponent": log_exponent}


def model_of(function, n_params):
    if isinstance(function, ConstantFunction) or not function.compound_terms:
        return {"constant": float(function.constant_coefficient), "terms": []}
    terms = []
    for t in function.compound_terms:
        if isinstance(t, MultiParameterTerm):
            coefficient = float(t.coefficient)
            by_param = {}
            for param, compound in t.parameter_term_pairs:
                coefficient *= float(compound.coefficient)
                f = factors_of(int(param), compound)
                if f["parameter"] in by_param:
                    g = by_param[f["parameter"]]
                    g["exponent"] += f["exponent"]
                    g["log_exponent"] += f["log_exponent"]
                else:
                    by_param[f["parameter"]] = f
            factors = [by_param[k] for k in sorted(by_param)]
        elif isinstance(t, CompoundTerm) and n_params == 1:
            coefficient = float(t.coefficient)
            factors = [factors_of(0, t)]
        else:
            fail(f"unexpected term {type(t).__name__} in a {n_params}-parameter model")
        terms.append({"coefficient": coefficient, "factors": factors})
    return {"constant": float(function.constant_coefficient), "terms": terms}


def evaluate(model, coords):
    v = model["constant"]
    for t in model["terms"]:
        x = t["coefficient"]
        for f in t["factors"]:
            c = coords[f["parameter"]]
            if f["exponent"] != 0:
                x *= c ** f["exponent"]
            if f["log_exponent"] != 0:
                x *= math.log2(c) ** f["log_exponent"]
        v += x
    return v


def extrap_eval(function, coords):
    if len(coords) == 1:
        return float(function.evaluate(coords[0]))
    return float(function.evaluate(tuple(coords)))


def check(model, function, coords, what):
    mine, theirs = evaluate(model, coords), extrap_eval(function, coords)
    if not math.isclose(mine, theirs, rel_tol=1e-9, abs_tol=1e-300):
        fail(f"{what}: the model read from Extra-P's terms gives {mine!r} at {coords}, "
             f"Extra-P {theirs!r}")
    return theirs


def main(argv):
    values, models, at, files = False, True, [], []
    it = iter(argv)
    for a in it:
        if a == "--values":
            values = True
        elif a == "--no-models":
            models = False
        elif a == "--at":
            at.append([float(x) for x in next(it).split(",")])
        elif a.startswith("-"):
            fail(f"unknown option {a}")
        else:
            files.append(a)
    if not files:
        fail("usage: extrap_models.py [--values] [--no-models] [--at X,Y,Z]... FILE...")
    out = {"extrap": extrap.__version__, "files": []}
    for path in files:
        reader = TextFileReader()
        reader.keep_values = True
        experiment = reader.read_experiment(path)
        params = [str(p) for p in experiment.parameters]
        for p in at:
            if len(p) != len(params):
                fail(f"--at {p}: {len(params)} parameters in {path}")
        points = [list(map(float, c.as_tuple())) for c in experiment.coordinates]
        index = {tuple(c): i for i, c in enumerate(points)}
        generated = {}
        if models:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                generator = ModelGenerator(experiment)
                generator.model_all()
            generated = generator.models
        series = []
        for (callpath, metric), ms in experiment.measurements.items():
            s = {"callpath": callpath.name, "metric": metric.name}
            if values:
                rows = [None] * len(points)
                for m in ms:
                    rows[index[tuple(map(float, m.coordinate.as_tuple()))]] = [
                        repr(float(v)) for v in m.values]
                s["values"] = rows
            if models:
                function = generated[(callpath, metric)].hypothesis.function
                model = model_of(function, len(params))
                what = f"{path}: {callpath.name} / {metric.name}"
                for c in points:
                    check(model, function, c, what)
                s["at"] = [check(model, function, c, what) for c in at]
                model["display"] = function.to_string(*experiment.parameters)
                s["model"] = model
            series.append(s)
        out["files"].append({"file": path, "parameters": params, "points": points,
                             "series": series})
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
