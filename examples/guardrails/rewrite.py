#!/usr/bin/env python3
"""PreToolUse hook for Bash: rewrite a command, then let it run.

    python3 rewrite.py pytest   # `pytest ARGS` -> `python3 -m unittest discover -s tests [-q]`
    python3 rewrite.py npm      # a line of npm install commands (any verb or alias) of registry
                                # packages with a few harmless options, and cd DIR -> the same
                                # with --ignore-scripts after each verb (a switch back on,
                                # --ignore-scripts=false, is dropped)

Reads the Claude Code hook input on stdin. When the rule applies, prints a
hookSpecificOutput envelope with updatedInput (the whole tool input, as Claude Code
requires) and the reason; otherwise prints nothing and the call goes through unchanged.
Only the npm rewrite answers permissionDecision "allow" (no permission prompt), and only for
a call with no field but Bash's ordinary ones: the pytest rewrite runs the project's own
tests, code the model may have written, so Claude Code's permission check decides it as it
would decide the call the model wrote (red team round 45: a test file that ran a command
went through with no prompt), and a call carrying dangerouslyDisableSandbox or another field
is rewritten without the allow, since the allow would approve that field as well.
Before it answers "allow" for an npm install, it reads the npm configuration that install
would read (the .npmrc files and npm_config_* variables: npm_config_problem below); a
setting outside SAFE_NPM_KEYS (git=, script-shell=, node-options=, ...: a program npm would
run even with --ignore-scripts) makes it answer "ask" instead, naming the setting and its
file. Needs only python3, 3.6 or newer.
"""
# Every line of this file parses under any Python, 2.7 included: a SyntaxError is raised when
# the whole file is compiled, before its first line runs, so newer syntax (:=, f-strings)
# would keep the version check below from running (red team round 65: a cloned repository's
# .python-version chose Python 3.6 through a pyenv shim, := failed to compile, and the npm
# line ran without --ignore-scripts). The hooks also say on_error: block, so a rewrite that
# cannot run at all blocks the call instead of letting the model's line through unchanged.
import sys

if sys.version_info < (3, 6):
    # Exit 2 blocks the call, with stderr as the reason.
    sys.stderr.write("rewrite.py needs Python 3.6 or newer, and python3 here is %s (a pyenv or "
                     "asdf shim reading the project's .python-version?): the call is blocked "
                     "rather than run without its rewrite\n" % sys.version.split()[0])
    sys.exit(2)

import json
import os
import re
import shutil
import stat


def pytest(command):
    m = re.match(r"\s*(?:python3? -m )?pytest\b(.*)", command)
    if not m:
        return None, ""
    quiet = any(a in ("-q", "--quiet") for a in m.group(1).split())
    new = "python3 -m unittest discover -s tests" + (" -q" if quiet else "")
    return new, "pytest is not installed here; rewritten to unittest"


# npm's install verbs and their aliases (npm help install, npm help ci). install-test (it,
# cit, install-ci-test) is not one of them: it runs `npm test`, a package script that
# --ignore-scripts does not stop.
NPM_VERBS = {"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal",
             "isntall", "add", "ci", "clean-install", "ic", "install-clean", "isntall-clean"}
# A word that would switch the scripts back on, or the flag itself: --ignore-scripts=false,
# --no-ignore-scripts, an abbreviation (--ig). Each is dropped and --ignore-scripts put
# right after the verb.
SCRIPTS_ON = re.compile(r"-{1,2}(?:no-)?ig[a-z-]*(?:=.*)?")
# The options an automatically allowed install may carry: each changes only what is saved
# or how much is fetched, never where a package comes from, which program runs or where it
# is installed (red team round 2: --git=./evil.sh ran evil.sh; --userconfig, -g --prefix,
# --registry, --node-options and --script-shell were allowed as well). Exact words only:
# npm expands an abbreviation (--reg=) to the option it starts, so a prefix is refused.
SAFE_OPTIONS = {
    "--save", "-S", "--save-prod", "-P", "--save-dev", "-D", "--save-optional", "-O",
    "--save-peer", "--save-exact", "-E", "--no-save", "--no-audit", "--no-fund",
    "--prefer-offline", "--prefer-online", "--offline", "--legacy-peer-deps",
    "--strict-peer-deps", "--no-package-lock", "--package-lock-only", "--dry-run",
    "--omit=dev", "--omit=optional", "--omit=peer", "--include=dev", "--include=optional",
    "--include=peer",
}
# A package spec that names a registry package: name, @scope/name, each optionally @ a
# version, range or tag (lodash@^4.17.0, @types/node@20). Not a git+/file:/http(s): URL, a
# path (./x, ../x, /x, ~/x), a GitHub shorthand (user/repo), an alias (x@npm:y) nor a
# tarball (x.tgz: npm reads a spec ending .tgz, .tar or .tar.gz as a file), and not the
# words true or false, which npm reads as the value of the flag before them.
SPEC = re.compile(r"(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*(?:@[A-Za-z0-9._^~*+-]+)?")
TARBALL = re.compile(r".*\.(?:tgz|tar|tar\.gz)", re.IGNORECASE)


def npm_install(words):
    """Returns the words of one `npm VERB ARG...` install command, whose every ARG is a
    registry package spec or a SAFE_OPTIONS word, with --ignore-scripts right after the verb
    and any other switch of it dropped; None for any other command (an option before the
    verb, any other option or spec)."""
    if len(words) < 2 or words[0] != "npm" or words[1] not in NPM_VERBS:
        return None
    kept = []
    for w in words[2:]:
        if SCRIPTS_ON.fullmatch(w):
            continue
        if w in SAFE_OPTIONS or (SPEC.fullmatch(w) and not TARBALL.fullmatch(w)
                                 and w not in ("true", "false")):
            kept.append(w)
        else:
            return None
    return ["npm", words[1], "--ignore-scripts"] + kept


# A directory `cd` may enter on a rewritten line: relative, below the session's directory
# (no `..`, not `-`, which is the previous one), so the npm configuration read there is the
# project's (npm_config_problem reads it, from each directory the line enters).
CD_DIR = re.compile(r"(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9_@+,][A-Za-z0-9_@.+,/-]*")


def npm(command):
    # The rewrite answers "allow", which skips the agent's permission prompt for the whole
    # line, so only a line made of npm install commands of registry packages and `cd DIR`,
    # joined by && or ;, is rewritten. A line with anything else in it (another command such
    # as `npm run clean` or `npm test`, an option that is not in SAFE_OPTIONS, a git, file or
    # URL spec, a comment, an expansion, quotes, a pipe, a background job) gets no answer and
    # goes through the normal permission check (red team: `touch PWNED # npm i` and
    # `npm i lodash && npm run clean` came back allowed; round 2: `npm i --git=./evil.sh
    # git+file:///...` ran evil.sh).
    if not re.fullmatch(r"[A-Za-z0-9_@./:=+,^~;& -]*", command) or "&" in command.replace("&&", ""):
        return None, ""
    out = []
    for segment in re.split(r"(&&|;)", command):
        if segment in ("&&", ";"):
            out.append(segment)
            continue
        words = segment.split()
        if len(words) == 2 and words[0] == "cd" and CD_DIR.fullmatch(words[1]):
            out.append(segment)
        else:
            rewritten = npm_install(words) if words else None
            if rewritten is None:
                return None, ""
            out.append(" " * (len(segment) - len(segment.lstrip())) + " ".join(rewritten)
                       + " " * (len(segment) - len(segment.rstrip())))
    new = "".join(out)
    if new == command:  # only cd, or every install already skips the scripts
        return None, ""
    return new, "package install scripts do not run for the agent: added --ignore-scripts"


# The npm settings an automatically allowed install may find in its configuration: none of
# them names a program npm runs, a module node loads, or another config file, during
# `npm install --ignore-scripts` (npm docs, "config" and "npmrc"). --ignore-scripts stops
# package scripts only: npm still runs the program `git=` names to fetch a git dependency,
# `script-shell`/`shell`, node with `node-options` (--require ./x.js), `node-gyp`, the
# `editor`/`browser`/`viewer` some commands open, `onload-script` (older npm) and
# `init-module` (npm init), and reads whatever `userconfig`/`globalconfig` name (red team
# round 65: a project .npmrc with git=/tmp/w5/evil.sh and a git+ssh dependency in
# package.json, then `npm i --offline lodash`, came back allowed and ran evil.sh). Rather than
# list those (npm adds settings), only these are allowed; any other key, including one this
# list does not know, makes the answer "ask":
SAFE_NPM_KEYS = {
    # Where packages come from and how they are fetched. The rewrite already trusts the
    # registry's packages (their code runs when the project does, which is a later call the
    # permission check sees); a private registry, its CA and proxy are the project's choice.
    "registry", "ca", "cafile", "strict-ssl", "proxy", "https-proxy", "noproxy", "cache",
    "offline", "prefer-offline", "prefer-online", "fetch-retries", "fetch-retry-factor",
    "fetch-retry-mintimeout", "fetch-retry-maxtimeout", "fetch-timeout", "maxsockets",
    "always-auth", "_auth", "_authtoken", "email", "username", "_password",
    # What is saved, resolved and reported.
    "save", "save-exact", "save-prefix", "save-dev", "save-optional", "save-peer",
    "package-lock", "package-lock-only", "lockfile-version", "omit-lockfile-registry-resolved",
    "legacy-peer-deps", "strict-peer-deps", "engine-strict", "omit", "include", "optional",
    "production", "fund", "audit", "audit-level", "loglevel", "progress", "color", "unicode",
    "update-notifier", "yes", "ignore-scripts",
    # Used only by commands the rewrite never allows: `prefix` is the global install
    # location (npm reads a local prefix only from the command line; -g, `global` and
    # `location` are not allowed), but it also moves the global config file to
    # PREFIX/etc/npmrc (@npmcli/config), so that file is read as well (prefix_npmrc); `nodedir` is node-gyp's, which runs only as an install
    # script, and init-* are npm init's defaults (not init-module, which is code).
    "prefix", "nodedir", "init-author-name", "init-author-email", "init-author-url",
    "init-license", "init-version", "init.author.name", "init.author.email",
    "init.author.url", "init.license", "init.version",
    # pnpm's settings, which often share the project's .npmrc; npm ignores them.
    "auto-install-peers", "shamefully-hoist", "strict-peer-dependencies",
}
# ... and the per-registry and per-scope forms: @scope:registry=URL and
# //host/path/:_authToken=... (npm docs, "npmrc", "Auth related configuration").
SAFE_NPM_KEY_FORMS = re.compile(
    r"@[a-z0-9][a-z0-9._-]*:registry"
    r"|//[A-Za-z0-9._~:@/%+-]*:(?:_authToken|_auth|username|_password|email|always-auth|certfile|keyfile)")
# A config file larger than this is not read (and so not trusted): a real .npmrc is a few lines.
NPMRC_MAX = 64 * 1024


def prefix_npmrc(value):
    """The global config file a `prefix` setting of value makes npm read, or "" when where it
    points is not plain: not absolute or ~/..., or holding any character but ASCII letters,
    digits and . _ - + / ~ (npm trims a value with JavaScript's trim(), which also removes a
    no-break space, and JSON-decodes a quoted one, so "/x\u0066" is /xf: red team round 66
    pointed the check at one file and npm at another; such a value is not followed, it is
    unknown)."""
    value = value.strip(" \t")
    if not value or any(not (c.isascii() and (c.isalnum() or c in "._-+/~")) for c in value):
        return ""
    if value.startswith("~/"):
        value = os.path.join(os.path.expanduser("~"), value[2:])
    if "$" in value or not os.path.isabs(value):
        return ""
    return os.path.join(value, "etc", "npmrc")


def npmrc_problem(path, more):
    """Returns why the npm config file at path keeps the install from being allowed ("" when
    it is missing or holds only safe keys), and appends to more the config files its
    settings make npm read too. npm reads it as ini (npm's `ini` package): lines
    split at CR or LF, `;` and `#` start a comment, `[section]` opens a section, `key = value`
    or a bare `key` (true), `key[]` an array. A key is compared as written, so one spelled any
    other way (quoted, escaped, a section) is not safe."""
    try:
        # O_NONBLOCK: a FIFO planted as .npmrc must not hang the hook (npm would block too).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (FileNotFoundError, NotADirectoryError):
        return ""
    except OSError as e:
        return "%s cannot be read (%s), so what npm takes from it is unknown" % (path, e.strerror)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return "%s is not a regular file, so what npm takes from it is unknown" % path
        if st.st_size > NPMRC_MAX:
            return "%s is larger than %d bytes, so it is not read" % (path, NPMRC_MAX)
        data = os.read(fd, NPMRC_MAX + 1)
    except OSError as e:
        return "%s cannot be read (%s), so what npm takes from it is unknown" % (path, e.strerror)
    finally:
        os.close(fd)
    if len(data) > NPMRC_MAX:
        return "%s is larger than %d bytes, so it is not read" % (path, NPMRC_MAX)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "%s is not UTF-8, so what npm takes from it is unknown" % path
    for line in re.split(r"[\r\n]+", text):
        if not line.strip(" \t") or re.match(r"[ \t]*[;#]", line):
            continue
        key, _, value = line.partition("=")
        key = key.strip(" \t")
        if key.endswith("[]"):
            key = key[:-2]
        if key not in SAFE_NPM_KEYS and not SAFE_NPM_KEY_FORMS.fullmatch(key):
            return "%s sets %s, which the rewrite cannot vouch for (a program npm may run or a file it loads)" % (
                path, json.dumps(key))
        if key == "prefix":
            if not prefix_npmrc(value):
                return "%s sets prefix to %s, and where npm then reads its global config is not known" % (
                    path, json.dumps(value.strip()))
            more.append(prefix_npmrc(value))
    return ""


def ancestors(path):
    """path and each directory above it, up to /."""
    out = []
    while True:
        out.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            return out
        path = parent


def npm_config_problem(command, cwd):
    """Returns why the npm configuration the line's installs would read keeps them from being
    allowed, "" when every setting in it is in SAFE_NPM_KEYS. What npm reads (npm docs,
    "npmrc"; @npmcli/config): npm_config_* variables, the project's .npmrc (in the nearest
    directory above the working directory with a package.json or node_modules, or the root of
    the workspaces it belongs to), the user's ($HOME/.npmrc) and the global one
    ($PREFIX/etc/npmrc). Rather than find the project directory as npm does, every .npmrc from
    each directory the line runs npm in up to / is read, both as the path is spelled and as
    symlinks resolve (npm walks up from the real directory). The user's own .npmrc is read too:
    the allow claims that the install runs no program, and that must hold whoever wrote the
    file (the model can have written it in an earlier call). npm's builtin npmrc, inside npm's
    own directory, is not read: whoever can change it can change npm."""
    files = []
    for name in sorted(os.environ):
        if not name.lower().startswith("npm_config_") or os.environ[name] == "":
            continue
        key = name[len("npm_config_"):]
        if not key.startswith("//"):  # npm's normalisation (@npmcli/config, loadEnv)
            key = key[:1] + key[1:].replace("_", "-")
            key = key.lower()
        if key not in SAFE_NPM_KEYS and not SAFE_NPM_KEY_FORMS.fullmatch(key):
            return "the environment sets %s (npm's %s), which the rewrite cannot vouch for" % (name, key)
        if key == "prefix":
            if not prefix_npmrc(os.environ[name]):
                return "the environment sets %s, and where npm then reads its global config is not known" % name
            files.append(prefix_npmrc(os.environ[name]))
    dirs = [cwd]
    here = cwd
    for segment in re.split(r"&&|;", command):
        words = segment.split()
        if len(words) == 2 and words[0] == "cd":
            if os.environ.get("CDPATH"):
                return "CDPATH is set, so where `cd %s` goes is not known" % words[1]
            here = os.path.join(here, words[1])
            dirs.append(here)
    for d in dirs:
        for top in (os.path.abspath(d), os.path.realpath(d)):
            files += [os.path.join(a, ".npmrc") for a in ancestors(top)]
    files.append(os.path.join(os.path.expanduser("~"), ".npmrc"))
    # The global prefix npm starts from: $PREFIX, else the directory above node's bin/ (and
    # $DESTDIR before it); /usr, /usr/local and / (/etc/npmrc, Debian's) are read as well.
    prefixes = [os.environ.get("PREFIX", ""), "/usr", "/usr/local", "/"]
    node = shutil.which("node")
    if node:
        prefixes.append(os.path.dirname(os.path.dirname(os.path.realpath(node))))
    if os.environ.get("DESTDIR"):
        prefixes += [os.path.join(os.environ["DESTDIR"], p.lstrip("/")) for p in prefixes if p]
    files += [os.path.join(p, "etc", "npmrc") for p in prefixes if p]
    seen = set()
    while files:  # npmrc_problem appends the files a prefix= setting points to
        f = files.pop(0)
        if f in seen:
            continue
        seen.add(f)
        problem = npmrc_problem(f, files)
        if problem:
            return problem
    return ""


# rule: (function, whether its rewrite may answer "allow").
RULES = {"pytest": (pytest, False), "npm": (npm, True)}
# The fields of a Bash call an "allow" may carry over: anything else (dangerouslyDisableSandbox,
# a field a later Claude Code adds) would be approved along with the rewritten command.
PLAIN_FIELDS = {"command", "description", "timeout", "run_in_background"}

rule, may_allow = RULES.get(sys.argv[1] if len(sys.argv) > 1 else "", (None, False))
if rule is None:
    sys.exit("usage: rewrite.py pytest|npm")
event = json.load(sys.stdin)
tool_input = event.get("tool_input") or {}
command = tool_input.get("command", "")
new, reason = rule(command)
if new is None:
    sys.exit(0)
out = {"hookEventName": "PreToolUse", "updatedInput": dict(tool_input, command=new)}
if may_allow:
    # The hook runs in the session's directory; the event's cwd is that directory as the
    # agent spells it (perhaps through a symlink), so both are walked.
    problem = npm_config_problem(command, os.getcwd())
    cwd = event.get("cwd")
    if not problem and isinstance(cwd, str) and os.path.isabs(cwd) and cwd != os.getcwd():
        problem = npm_config_problem(command, cwd)
    if problem:
        # Still rewritten (the scripts stay off), but a person decides: "ask" shows the
        # reason in the prompt, where no answer would leave a plain prompt, or none at all
        # under an allow rule the user wrote for installs that run no code.
        out["permissionDecision"] = "ask"
        out["permissionDecisionReason"] = (
            "added --ignore-scripts, but npm may still run a program its configuration names: "
            + problem)
    elif set(tool_input) <= PLAIN_FIELDS:
        out["permissionDecision"] = "allow"
        out["permissionDecisionReason"] = reason
json.dump({"hookSpecificOutput": out}, sys.stdout)
