#!/usr/bin/env python3
"""check_sarif.py [--results N] [--min-results N] FILE

Checks that FILE is a SARIF 2.1.0 log with the structure the SARIF 2.1.0 JSON
schema requires (and that code scanning services rely on), using only the
Python standard library (no schema download, no jsonschema package):

  - top level: "version" == "2.1.0", "runs" a non-empty array, "$schema" a
    string naming SARIF 2.1.0 when present;
  - each run: tool.driver.name, rules with unique string ids and a help text
    (GitHub code scanning requires it), rule fields of the right shape (descriptions have "text", defaultConfiguration.level in
    the level enum); originalUriBaseIds URIs end with "/";
  - each result: message.text, a ruleId that names a rule of the driver
    (ruleIndex, when present, points at that rule), level in
    {none, note, warning, error}, locations[].physicalLocation.artifactLocation.uri
    a URI reference (uriBaseId declared in originalUriBaseIds), region
    startLine >= 1 and a well-ordered end, non-empty partialFingerprints of
    strings; relatedLocations like locations with message.text; fixes with a
    non-empty artifactChanges, each with an artifactLocation and non-empty
    replacements whose deletedRegion is a valid region;
  - invocations: executionSuccessful boolean, notifications with message.text
    and a valid level.

Exits 0 when the file passes, 1 with one message per problem otherwise."""
import json
import re
import sys

LEVELS = {"none", "note", "warning", "error"}
KINDS = {"notApplicable", "pass", "fail", "review", "open", "informational"}
URI_REF = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")


class Checker:
    def __init__(self):
        self.errors = []

    def error(self, path, msg):
        self.errors.append("%s: %s" % (path, msg))

    def obj(self, value, path):
        if not isinstance(value, dict):
            self.error(path, "must be an object")
            return False
        return True

    def array(self, value, path, nonempty=False):
        if not isinstance(value, list):
            self.error(path, "must be an array")
            return False
        if nonempty and not value:
            self.error(path, "must not be empty")
            return False
        return True

    def string(self, value, path, nonempty=True):
        if not isinstance(value, str) or (nonempty and not value):
            self.error(path, "must be a %sstring" % ("non-empty " if nonempty else ""))
            return False
        return True

    def integer(self, value, path, minimum):
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            self.error(path, "must be an integer >= %d" % minimum)
            return False
        return True

    def message(self, value, path):
        if self.obj(value, path):
            if "text" not in value and "id" not in value:
                self.error(path, "needs \"text\" (or \"id\")")
            elif "text" in value:
                self.string(value["text"], path + ".text")

    def level(self, value, path):
        if value not in LEVELS:
            self.error(path, "must be one of %s, not %r" % (sorted(LEVELS), value))

    def uri(self, value, path):
        if self.string(value, path) and not URI_REF.match(value):
            self.error(path, "is not a valid URI reference: %r" % value)

    def region(self, value, path):
        if not self.obj(value, path):
            return
        if "startLine" not in value:
            self.error(path, "needs \"startLine\"")
            return
        ok = self.integer(value["startLine"], path + ".startLine", 1)
        for key in ("startColumn", "endColumn", "endLine"):
            if key in value:
                ok = self.integer(value[key], path + "." + key, 1) and ok
        if not ok:
            return
        start = (value["startLine"], value.get("startColumn", 1))
        if "endLine" in value:
            end = (value["endLine"], value.get("endColumn", start[1]))
        elif "endColumn" in value:
            end = (value["startLine"], value["endColumn"])
        else:
            return
        if end < start:
            self.error(path, "ends (%d:%d) before it starts (%d:%d)" % (end + start))

    def artifact_location(self, value, path, base_ids):
        if not self.obj(value, path):
            return
        if "uri" not in value:
            self.error(path, "needs \"uri\"")
        else:
            self.uri(value["uri"], path + ".uri")
        if "uriBaseId" in value:
            if self.string(value["uriBaseId"], path + ".uriBaseId") and \
                    value["uriBaseId"] not in base_ids:
                self.error(path + ".uriBaseId",
                           "%r is not declared in run.originalUriBaseIds" % value["uriBaseId"])
            if isinstance(value.get("uri"), str) and re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:",
                                                              value["uri"]):
                self.error(path + ".uri", "is absolute but has a uriBaseId")

    def physical_location(self, value, path, base_ids):
        if not self.obj(value, path):
            return
        if "artifactLocation" not in value:
            self.error(path, "needs \"artifactLocation\"")
        else:
            self.artifact_location(value["artifactLocation"], path + ".artifactLocation",
                                   base_ids)
        if "region" in value:
            self.region(value["region"], path + ".region")

    def location(self, value, path, base_ids, related=False):
        if not self.obj(value, path):
            return
        if "physicalLocation" not in value:
            self.error(path, "needs \"physicalLocation\"")
        else:
            self.physical_location(value["physicalLocation"], path + ".physicalLocation",
                                   base_ids)
        if "id" in value:
            self.integer(value["id"], path + ".id", -1)
        if related:
            if "message" not in value:
                self.error(path, "a related location needs \"message\"")
            else:
                self.message(value["message"], path + ".message")

    def rule(self, value, path):
        if not self.obj(value, path):
            return None
        if "id" not in value:
            self.error(path, "needs \"id\"")
            return None
        self.string(value["id"], path + ".id")
        if "name" in value:
            self.string(value["name"], path + ".name")
        # help (text, and markdown when present): GitHub code scanning needs
        # it on every rule (the SARIF Multitool's GH2012).
        if "help" not in value:
            self.error(path, "needs \"help\" (GitHub code scanning requires it)")
        for key in ("shortDescription", "fullDescription", "help"):
            if key in value:
                if self.obj(value[key], path + "." + key):
                    if "text" not in value[key]:
                        self.error(path + "." + key, "needs \"text\"")
                    else:
                        self.string(value[key]["text"], path + "." + key + ".text")
                    if "markdown" in value[key]:
                        self.string(value[key]["markdown"], path + "." + key + ".markdown")
        if "helpUri" in value:
            self.uri(value["helpUri"], path + ".helpUri")
        if "defaultConfiguration" in value:
            cfg = value["defaultConfiguration"]
            if self.obj(cfg, path + ".defaultConfiguration") and "level" in cfg:
                self.level(cfg["level"], path + ".defaultConfiguration.level")
        return value["id"]

    def fix(self, value, path, base_ids):
        if not self.obj(value, path):
            return
        if "description" in value:
            self.message(value["description"], path + ".description")
        if "artifactChanges" not in value:
            self.error(path, "needs \"artifactChanges\"")
            return
        changes = value["artifactChanges"]
        if not self.array(changes, path + ".artifactChanges", nonempty=True):
            return
        for i, ch in enumerate(changes):
            cp = "%s.artifactChanges[%d]" % (path, i)
            if not self.obj(ch, cp):
                continue
            if "artifactLocation" not in ch:
                self.error(cp, "needs \"artifactLocation\"")
            else:
                self.artifact_location(ch["artifactLocation"], cp + ".artifactLocation",
                                       base_ids)
            if "replacements" not in ch:
                self.error(cp, "needs \"replacements\"")
                continue
            if not self.array(ch["replacements"], cp + ".replacements", nonempty=True):
                continue
            for k, rep in enumerate(ch["replacements"]):
                rp = "%s.replacements[%d]" % (cp, k)
                if not self.obj(rep, rp):
                    continue
                if "deletedRegion" not in rep:
                    self.error(rp, "needs \"deletedRegion\"")
                else:
                    self.region(rep["deletedRegion"], rp + ".deletedRegion")
                if "insertedContent" in rep:
                    ic = rep["insertedContent"]
                    if self.obj(ic, rp + ".insertedContent") and "text" not in ic and \
                            "binary" not in ic:
                        self.error(rp + ".insertedContent", "needs \"text\" or \"binary\"")

    def result(self, value, path, rule_ids, base_ids):
        if not self.obj(value, path):
            return
        if "message" not in value:
            self.error(path, "needs \"message\"")
        else:
            self.message(value["message"], path + ".message")
        rule_id = value.get("ruleId")
        if rule_id is None:
            self.error(path, "needs \"ruleId\"")
        elif self.string(rule_id, path + ".ruleId") and rule_id not in rule_ids:
            self.error(path + ".ruleId", "%r is not a rule of tool.driver" % rule_id)
        if "ruleIndex" in value and self.integer(value["ruleIndex"], path + ".ruleIndex", 0):
            idx = value["ruleIndex"]
            if idx >= len(rule_ids):
                self.error(path + ".ruleIndex", "%d is out of range" % idx)
            elif rule_id is not None and rule_ids[idx] != rule_id:
                self.error(path + ".ruleIndex",
                           "points at %r, not at ruleId %r" % (rule_ids[idx], rule_id))
        if "level" in value:
            self.level(value["level"], path + ".level")
        if "kind" in value and value["kind"] not in KINDS:
            self.error(path + ".kind", "invalid kind %r" % value["kind"])
        if "locations" not in value:
            self.error(path, "needs \"locations\"")
        elif self.array(value["locations"], path + ".locations", nonempty=True):
            for i, loc in enumerate(value["locations"]):
                self.location(loc, "%s.locations[%d]" % (path, i), base_ids)
        if "relatedLocations" in value and self.array(value["relatedLocations"],
                                                      path + ".relatedLocations"):
            for i, loc in enumerate(value["relatedLocations"]):
                self.location(loc, "%s.relatedLocations[%d]" % (path, i), base_ids,
                              related=True)
        fps = value.get("partialFingerprints")
        if fps is None:
            self.error(path, "needs \"partialFingerprints\"")
        elif self.obj(fps, path + ".partialFingerprints"):
            if not fps:
                self.error(path + ".partialFingerprints", "must not be empty")
            for k, v in fps.items():
                self.string(v, "%s.partialFingerprints[%r]" % (path, k))
        if "fixes" in value and self.array(value["fixes"], path + ".fixes"):
            for i, fx in enumerate(value["fixes"]):
                self.fix(fx, "%s.fixes[%d]" % (path, i), base_ids)

    def run(self, value, path):
        if not self.obj(value, path):
            return 0
        base_ids = set()
        if "originalUriBaseIds" in value:
            bases = value["originalUriBaseIds"]
            if self.obj(bases, path + ".originalUriBaseIds"):
                for k, v in bases.items():
                    bp = "%s.originalUriBaseIds[%r]" % (path, k)
                    base_ids.add(k)
                    if self.obj(v, bp) and "uri" in v:
                        if self.string(v["uri"], bp + ".uri"):
                            self.uri(v["uri"], bp + ".uri")
                            if not v["uri"].endswith("/"):
                                self.error(bp + ".uri", "must end with '/'")
        tool = value.get("tool")
        rule_ids = []
        if tool is None:
            self.error(path, "needs \"tool\"")
        elif self.obj(tool, path + ".tool"):
            driver = tool.get("driver")
            if driver is None:
                self.error(path + ".tool", "needs \"driver\"")
            elif self.obj(driver, path + ".tool.driver"):
                if "name" not in driver:
                    self.error(path + ".tool.driver", "needs \"name\"")
                else:
                    self.string(driver["name"], path + ".tool.driver.name")
                for key in ("version", "semanticVersion"):
                    if key in driver:
                        self.string(driver[key], path + ".tool.driver." + key)
                if "informationUri" in driver:
                    self.uri(driver["informationUri"], path + ".tool.driver.informationUri")
                rules = driver.get("rules", [])
                if self.array(rules, path + ".tool.driver.rules"):
                    for i, r in enumerate(rules):
                        rid = self.rule(r, "%s.tool.driver.rules[%d]" % (path, i))
                        if rid in rule_ids:
                            self.error("%s.tool.driver.rules[%d].id" % (path, i),
                                       "duplicate rule id %r" % rid)
                        rule_ids.append(rid)
        if "invocations" in value and self.array(value["invocations"], path + ".invocations"):
            for i, inv in enumerate(value["invocations"]):
                ip = "%s.invocations[%d]" % (path, i)
                if not self.obj(inv, ip):
                    continue
                if not isinstance(inv.get("executionSuccessful"), bool):
                    self.error(ip, "needs a boolean \"executionSuccessful\"")
                for key in ("toolExecutionNotifications", "toolConfigurationNotifications"):
                    if key in inv and self.array(inv[key], ip + "." + key):
                        for k, n in enumerate(inv[key]):
                            np = "%s.%s[%d]" % (ip, key, k)
                            if not self.obj(n, np):
                                continue
                            if "message" not in n:
                                self.error(np, "needs \"message\"")
                            else:
                                self.message(n["message"], np + ".message")
                            if "level" in n:
                                self.level(n["level"], np + ".level")
        results = value.get("results")
        if results is None:
            self.error(path, "needs \"results\"")
            return 0
        if not self.array(results, path + ".results"):
            return 0
        for i, r in enumerate(results):
            self.result(r, "%s.results[%d]" % (path, i), rule_ids, base_ids)
        return len(results)

    def log(self, value):
        if not self.obj(value, "$"):
            return 0
        if value.get("version") != "2.1.0":
            self.error("$.version", "must be \"2.1.0\", not %r" % value.get("version"))
        if "$schema" in value:
            schema = value["$schema"]
            if not isinstance(schema, str) or "sarif" not in schema.lower() or \
                    "2.1.0" not in schema:
                self.error("$.$schema", "does not name the SARIF 2.1.0 schema: %r" % schema)
        runs = value.get("runs")
        if runs is None:
            self.error("$", "needs \"runs\"")
            return 0
        if not self.array(runs, "$.runs", nonempty=True):
            return 0
        return sum(self.run(r, "$.runs[%d]" % i) for i, r in enumerate(runs))


def main(argv):
    want = want_min = None
    args = argv[1:]
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt in ("--results", "--min-results") and args:
            n = int(args.pop(0))
            if opt == "--results":
                want = n
            else:
                want_min = n
        else:
            sys.stderr.write("check_sarif: unknown option %s\n" % opt)
            return 2
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write("check_sarif: %s: %s\n" % (args[0], e))
        return 1
    c = Checker()
    count = c.log(data)
    if want is not None and count != want:
        c.error("$", "has %d results, expected %d" % (count, want))
    if want_min is not None and count < want_min:
        c.error("$", "has %d results, expected at least %d" % (count, want_min))
    for e in c.errors:
        sys.stderr.write("check_sarif: %s: %s\n" % (args[0], e))
    if c.errors:
        return 1
    print("check_sarif: %s: valid SARIF 2.1.0, %d results" % (args[0], count))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
