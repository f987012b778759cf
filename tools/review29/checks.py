"""Issue 29's findings, from outside, against a running Herald (tools/review29/run.sh). One line per check."""
import http.client, json, os, secrets, sys, threading, time
port = int(sys.argv[1]); check = sys.argv[2]
TOKEN = "r29-admin-token-0123456789abcdefghijklmnop"
ALICE = os.environ.get("ALICE_TOKEN", "")
def call(method, path, body=None, headers=None, raw=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    h = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"} if headers is None else headers
    data = raw if raw is not None else (None if body is None else json.dumps(body))
    c.request(method, path, body=data, headers=h)
    r = c.getresponse(); b = r.read(); hd = dict(r.getheaders()); c.close()
    return r.status, b.decode("utf-8", "replace"), hd
A = "/api/v1/admin"
def project(name="r29"):
    return json.loads(call("POST", A + "/projects", {"name": name})[1])["id"]
def key(pid):
    return json.loads(call("POST", A + f"/projects/{pid}/api-keys", {})[1])["key"]
def signin(name, token, extra=None):
    h = {"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"}
    st, b, hd = call("POST", A + "/session", {"name": name, "token": token}, headers=h)
    cookie = hd.get("Set-Cookie", "").split(";")[0]
    return st, cookie, (json.loads(b).get("csrfToken") if st == 201 else b)

if check == "1":
    pid = project(); k = key(pid)
    for n in (1, 2, 3, 6):
        msg = "&lt;" * n + "<!---->" + "!---->" * (n - 1) + "img src=x onerror=alert(document.domain)>"
        st, b, _ = call("POST", A + f"/projects/{pid}/notifications", {"message": msg, "status": "PUBLISHED"})
        stored = json.loads(b).get("message") if st == 201 else b[:120]
        print(f"F1 k={n}: {st} stored {stored!r}")
    st, feed, _ = call("GET", f"/api/v1/public/{k}/notifications", headers={})
    tags = [m["message"] for m in json.loads(feed) if "<img" in m["message"] and "onerror" in m["message"]]
    print(f"F1 feed: {len(tags)} message(s) with a raw <img ... onerror> tag: {tags}")
elif check == "4":
    pid = project()
    for attr, value in (("onerror", ["alert(1)"]), ("style", ["x"]), ("action", ["javascript:alert(1)"]), ("data", ["javascript:alert(1)"])):
        doc = {"type": "doc", "content": [{"type": "paragraph", "attrs": {attr: value}, "content": [{"type": "text", "text": "hi"}]}]}
        st, b, _ = call("POST", A + f"/projects/{pid}/notifications", {"message": doc})
        print(f"F4 attrs.{attr}={value}: {st} {b[:160]}")
elif check == "5":
    pid = project()
    def create():
        return json.loads(call("POST", A + f"/projects/{pid}/notifications", {"message": "m0"})[1])["id"]
    def together(fns):
        out = [None] * len(fns); bar = threading.Barrier(len(fns))
        def run(i):
            bar.wait(); out[i] = fns[i]()
        ts = [threading.Thread(target=run, args=(i,)) for i in range(len(fns))]
        [t.start() for t in ts]; [t.join() for t in ts]; return out
    def lines(nid):
        return json.loads(call("GET", A + f"/audit?targetId={nid}&limit=1000")[1])
    n = create()
    st = together([lambda: call("DELETE", A + f"/notifications/{n}")[0]] * 2)
    print(f"F5 two DELETEs at once: {st}; delete lines: {sum(1 for l in lines(n) if 'deleted' in l['action'])}")
    n = create()
    st = together([lambda: call("PATCH", A + f"/notifications/{n}", {"message": "patched"})[0], lambda: call("DELETE", A + f"/notifications/{n}")[0]])
    ls = [l["action"] for l in reversed(lines(n))]
    print(f"F5 PATCH racing DELETE: {st}; lines oldest first: {ls}")
    n = create()
    st = together([(lambda i=i: call("PATCH", A + f"/notifications/{n}", {"message": f"m{i+1}"})[0]) for i in range(10)])
    froms = [json.dumps(l["details"])[:80] for l in lines(n) if l["action"].endswith("updated")]
    distinct = len(set(json.dumps(l["details"].get("message", {}).get("from")) for l in lines(n) if l["action"].endswith("updated")))
    print(f"F5 ten PATCHes at once: {sorted(set(st))}; {len(froms)} update lines, {distinct} distinct 'from' values")
elif check == "3a":
    st, cookie, csrf = signin("alice", ALICE)
    print(f"F3 alice signs in: {st}")
    open("/tmp/r29-cookie", "w").write(cookie + "\n" + str(csrf))
elif check == "3b":
    cookie, csrf = open("/tmp/r29-cookie").read().split("\n")
    h = {"Cookie": cookie, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", "X-CSRF-Token": csrf}
    st, b, _ = call("GET", A + "/projects", headers=h)
    st2, b2, _ = call("POST", A + "/projects", {"name": "after-token-change"}, headers=h)
    print(f"F3 the old session after {os.environ.get('WHAT')}: read {st}, write {st2} {b2[:100]}")
elif check == "7":
    for i in range(12):
        call("GET", A + "/projects", headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"})
    pre = [call("OPTIONS", A + "/projects", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "DELETE"})[0] for _ in range(3)]
    st, cookie, info = signin("alice", ALICE)
    print(f"F7 after 12 credential-less <img> requests and 3 preflights ({pre}): alice's sign-in {st}")
elif check == "8":
    t0 = time.time(); n = 0; statuses = {}
    while time.time() - t0 < 10:
        st, cookie, _ = signin("vic", os.environ["VIC_TOKEN"]); n += 1; statuses[st] = statuses.get(st, 0) + 1
    print(f"F8 sign-ins by one viewer in 10 s: {n} {statuses}")
elif check == "9":
    def flood(k):
        for i in range(k):
            call("GET", A + "/projects", headers={"Cookie": "__Host-herald-session=" + secrets.token_urlsafe(32), "Sec-Fetch-Site": "same-origin"})
    ts = [threading.Thread(target=flood, args=(250,)) for _ in range(8)]
    t0 = time.time(); [t.start() for t in ts]; [t.join() for t in ts]
    print(f"F9 2,000 random session cookies from 8 threads in {time.time()-t0:.1f} s")
    codes = {}
    for i in range(300):
        st = call("GET", A + "/projects")[0]; codes[st] = codes.get(st, 0) + 1
    print(f"F9 then 300 reads with a right token from the same address: {codes}")
