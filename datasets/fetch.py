#!/usr/bin/env python3
"""Downloads the papers' graphs from their public homes, checks them,
converts each to .cgr once, and keeps a local catalogue so that
`chatty run --graph=NAME` works anywhere a path does.

  python3 datasets/fetch.py list
  python3 datasets/fetch.py get NAME [NAME ...]   # resumes a partial download
  python3 datasets/fetch.py path NAME

The data folder is $CHATTY_DATA, else ~/.cache/chattygraph/datasets; it
holds NAME/ (the download and NAME.cgr), catalog.json (what was fetched,
with its size and SHA-256) and index.txt ('NAME PATH' lines, what chatty
reads). The catalogue of sources is datasets/catalog.json ($CHATTY_CATALOG
overrides it). A size or SHA-256 the catalogue gives is checked; where it
gives none, the first download's is recorded and later ones must match."""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class FetchError(Exception):
    pass


def data_dir():
    return os.environ.get("CHATTY_DATA") or os.path.join(os.path.expanduser("~"), ".cache", "chattygraph", "datasets")


def sources():
    with open(os.environ.get("CHATTY_CATALOG") or os.path.join(HERE, "catalog.json")) as f:
        return {k: v for k, v in json.load(f).items() if not k.startswith("_")}


def local_catalog(folder):
    path = os.path.join(folder, "catalog.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {}


def save_local(folder, cat):
    tmp = os.path.join(folder, "catalog.json.tmp")
    with open(tmp, "w") as f:
        json.dump(cat, f, indent=2)
    os.replace(tmp, os.path.join(folder, "catalog.json"))
    with open(os.path.join(folder, "index.txt.tmp"), "w") as f:
        for name, e in sorted(cat.items()):
            if e.get("cgr"):
                f.write(f"{name} {e['cgr']}\n")
    os.replace(os.path.join(folder, "index.txt.tmp"), os.path.join(folder, "index.txt"))


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def download(url, dest, expected_bytes):
    """Fetches url into dest, resuming dest.part with a Range request."""
    part = dest + ".part"
    have = os.path.getsize(part) if os.path.exists(part) else 0
    req = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    host = urllib.parse.urlparse(url).netloc
    try:
        resp = urllib.request.urlopen(req, timeout=30)
    except urllib.error.HTTPError as e:
        if e.code == 416 and have and (expected_bytes is None or have == expected_bytes):
            os.replace(part, dest)  # the part was already whole
            return
        raise FetchError(f"{url}: HTTP {e.code} {e.reason}")
    except (urllib.error.URLError, OSError) as e:
        raise FetchError(f"cannot reach {host}: {getattr(e, 'reason', e)} (no network, or the site is down?)")
    with resp:
        resumed = have and resp.status == 206
        if have and not resumed:
            have = 0  # the server sent the whole file: start over
        total = resp.headers.get("Content-Length")
        total = int(total) + have if total is not None else expected_bytes
        tty, t0, done = sys.stderr.isatty(), time.time(), have
        with open(part, "ab" if resumed else "wb") as f:
            while True:
                block = resp.read(1 << 20)
                if not block:
                    break
                f.write(block)
                done += len(block)
                if tty:
                    pct = f"{100 * done / total:5.1f} %" if total else ""
                    rate = (done - have) / max(time.time() - t0, 1e-6) / 1e6
                    print(f"\r  {os.path.basename(dest)}: {done / 1e6:.1f} MB {pct} {rate:.1f} MB/s", end="",
                          file=sys.stderr, flush=True)
        if tty:
            print(file=sys.stderr)
    if resumed:
        print(f"  resumed at {have} bytes", file=sys.stderr)
    os.replace(part, dest)


def check(path, name, src, known):
    size, digest = os.path.getsize(path), sha256(path)
    want_bytes = src.get("bytes") or known.get("bytes")
    want_sha = src.get("sha256") or known.get("sha256")
    problem = None
    if want_bytes is not None and size != want_bytes:
        problem = f"size {size} bytes, the catalogue says {want_bytes}"
    elif want_sha and digest != want_sha:
        problem = f"checksum mismatch: SHA-256 {digest}, the catalogue says {want_sha}"
    if problem:
        os.remove(path)  # a bad copy must not be converted or resumed
        raise FetchError(f"{name}: {problem}; the download was removed")
    return size, digest


def extract(archive, member, folder):
    with tarfile.open(archive) as t:
        for m in t.getmembers():
            if m.isfile() and os.path.basename(m.name) == member:
                out = os.path.join(folder, member)
                with t.extractfile(m) as src, open(out, "wb") as dst:
                    while True:
                        block = src.read(1 << 20)
                        if not block:
                            break
                        dst.write(block)
                return out
    raise FetchError(f"{archive}: no member {member}")


def chatty_json(chatty, *args):
    p = subprocess.run([chatty, *args, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise FetchError(p.stderr.strip() or f"chatty {' '.join(args)} failed")
    return json.loads(p.stdout.strip().splitlines()[-1])


def convert(chatty, source, cgr, src):
    """source -> cgr, then both loaded and compared: the conversion is checked
    against the file it came from."""
    fmt = ["--format=" + src["format"]]
    undirected = [] if src.get("directed", True) else ["--undirected"]
    p = subprocess.run([chatty, "convert", source, cgr + ".tmp", *fmt, *undirected, "--out_format=cgr"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise FetchError(p.stderr.strip())
    a = chatty_json(chatty, "info", source, *fmt, *undirected)
    b = chatty_json(chatty, "info", cgr + ".tmp")
    for k in ("vertices", "edges", "directed", "weighted"):
        if a[k] != b[k]:
            raise FetchError(f"{cgr}: {k} {b[k]} after conversion, {a[k]} in {source}")
    os.replace(cgr + ".tmp", cgr)
    return b


def get(name, chatty):
    srcs = sources()
    if name not in srcs:
        raise FetchError(f"unknown data set '{name}' (known: {', '.join(sorted(srcs))})")
    src, folder = srcs[name], data_dir()
    os.makedirs(os.path.join(folder, name), exist_ok=True)
    cat = local_catalog(folder)
    known = cat.get(name, {})
    cgr = os.path.join(folder, name, name + ".cgr")
    if known.get("cgr") == cgr and os.path.exists(cgr):
        print(f"{name}: already here ({cgr})")
        return cgr
    dest = os.path.join(folder, name, os.path.basename(urllib.parse.urlparse(src["url"]).path))
    if not os.path.exists(dest):
        print(f"{name}: downloading {src['url']}", file=sys.stderr)
        download(src["url"], dest, src.get("bytes") or known.get("bytes"))
    size, digest = check(dest, name, src, known)
    source = extract(dest, src["member"], os.path.join(folder, name)) if src.get("member") else dest
    print(f"{name}: converting to .cgr", file=sys.stderr)
    info = convert(chatty, source, cgr, src)
    if source != dest:
        os.remove(source)
    cat[name] = {"url": src["url"], "file": dest, "bytes": size, "sha256": digest, "cgr": cgr,
                 "vertices": info["vertices"], "edges": info["edges"], "directed": info["directed"],
                 "fetched": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    save_local(folder, cat)
    print(f"{name}: {info['vertices']} vertices, {info['edges']} edges -> {cgr}")
    return cgr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    g = sub.add_parser("get")
    g.add_argument("names", nargs="+")
    g.add_argument("--chatty", default=os.path.join(ROOT, "build", "chatty"))
    p = sub.add_parser("path")
    p.add_argument("name")
    a = ap.parse_args()
    try:
        if a.cmd == "list":
            here = local_catalog(data_dir())
            for name, s in sorted(sources().items()):
                state = f"here: {here[name]['cgr']}" if name in here else "not fetched"
                print(f"{name:18} {s['paper']:40} {state}")
        elif a.cmd == "path":
            e = local_catalog(data_dir()).get(a.name)
            if not e:
                raise FetchError(f"{a.name} is not fetched (python3 datasets/fetch.py get {a.name})")
            print(e["cgr"])
        else:
            for name in a.names:
                get(name, a.chatty)
    except FetchError as e:
        print(f"fetch: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
