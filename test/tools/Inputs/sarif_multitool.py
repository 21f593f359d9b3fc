#!/usr/bin/env python3
"""sarif_multitool.py CACHE_DIR FILE.sarif...

Validates SARIF logs with Microsoft's SARIF Multitool and its GitHub rules
(`validate --rule-kind "Ghas;Sarif"`), what GitHub code scanning applies on
upload. The Multitool comes from the npm registry (@microsoft/sarif-multitool),
installed once into CACHE_DIR.

Prints the Multitool's findings and exits 1 if it reports any error or
warning, 0 if it reports none. When npm is not installed or the registry
cannot be reached, prints "sarif_multitool: SKIPPED: <why>" and exits 0:
that is the only case this check does not run."""
import json
import os
import shutil
import subprocess
import sys

PACKAGE = "@microsoft/sarif-multitool"


def skip(why):
    print("sarif_multitool: SKIPPED: %s" % why)
    sys.exit(0)


def binary(cache):
    # The npm package's launcher runs the platform binary through a shell,
    # which splits "Ghas;Sarif": run the binary itself.
    return os.path.join(cache, "node_modules", "@microsoft", "sarif-multitool-linux",
                        "Sarif.Multitool")


def install(cache):
    exe = binary(cache)
    if os.path.exists(exe):
        return exe
    npm = shutil.which("npm")
    if not npm:
        skip("npm is not installed")
    os.makedirs(cache, exist_ok=True)
    try:
        r = subprocess.run([npm, "install", "--prefix", cache, "--no-audit", "--no-fund",
                            "--loglevel=error", PACKAGE],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=600)
    except subprocess.TimeoutExpired:
        skip("npm install %s timed out (registry unreachable?)" % PACKAGE)
    if r.returncode != 0:
        out = r.stdout
        if any(k in out for k in ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT",
                                  "ENETUNREACH", "network", "proxy",
                                  # a TLS-intercepting network: no trusted registry
                                  "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_GET_ISSUER_CERT",
                                  "CERT_HAS_EXPIRED", "UNABLE_TO_VERIFY_LEAF_SIGNATURE")):
            skip("the npm registry cannot be reached:\n" + out.strip())
        print(out)
        sys.exit("sarif_multitool: npm install %s failed" % PACKAGE)
    if not os.path.exists(exe):
        sys.exit("sarif_multitool: %s installed, but %s is missing" % (PACKAGE, exe))
    os.chmod(exe, 0o755)  # its postinstall chmod does not run under npm 10
    return exe


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cache, files = sys.argv[1], sys.argv[2:]
    exe = install(cache)
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1",
               DOTNET_CLI_TELEMETRY_OPTOUT="1")
    bad = 0
    for f in files:
        out = f + ".validation.sarif"
        r = subprocess.run([exe, "validate", "--rule-kind", "Ghas;Sarif", f, "--output", out,
                            "--log", "ForceOverwrite"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, env=env, timeout=600)
        if r.returncode != 0 or not os.path.exists(out):
            print(r.stdout)
            sys.exit("sarif_multitool: the Multitool failed on %s" % f)
        with open(out) as fp:
            results = json.load(fp)["runs"][0].get("results", [])
        problems = [x for x in results if x.get("level", "warning") in ("error", "warning")]
        for x in problems:
            msg = x.get("message", {})
            text = msg.get("text") or " ".join(str(a) for a in msg.get("arguments", []))
            print("%s: %s %s: %s" % (f, x.get("level", "warning"), x.get("ruleId"), text))
        print("sarif_multitool: %s: %d problems" % (f, len(problems)))
        bad += len(problems)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
