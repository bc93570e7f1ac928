package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

// do sends one request to ts with the given Host (empty: the server's own),
// headers and body (nil: a GET).
func do(t *testing.T, ts *httptest.Server, host, path string, hdr map[string]string, body *string) (int, string) {
	t.Helper()
	method, rd := "GET", io.Reader(nil)
	if body != nil {
		method, rd = "POST", strings.NewReader(*body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestGuard sends the requests a page of another site can make (directly
// or after rebinding its name to 127.0.0.1) and the page's own.
func TestGuard(t *testing.T) {
	ts := httptest.NewServer(testServer().Handler())
	defer ts.Close()
	u, _ := url.Parse(ts.URL)
	self, port := u.Host, u.Port()
	json := "application/json"
	body := `{"x":1}`
	cases := []struct {
		name       string
		host       string
		get        bool
		ctype      string
		site       string // Sec-Fetch-Site
		origin     string
		want       int
		wantInBody string
	}{
		{"page GET", "", true, "", "", "", 200, "app:/api"},
		{"landing via localhost", "localhost:" + port, true, "", "none", "", 200, "app:/api"},
		{"localhost subdomain", "yomi.localhost:" + port, true, "", "", "", 200, "app:/api"},
		{"IPv6 loopback literal", "[::1]:" + port, true, "", "", "", 200, "app:/api"},
		{"rebound name GET", "evil.example:" + port, true, "", "", "", 421, "--allow-host evil.example:" + port},
		{"rebound name without port", "evil.example", true, "", "", "", 421, "DNS rebinding"},
		{"another port", "127.0.0.1:1", true, "", "", "", 421, "refused Host"},
		{"same-origin JSON POST", "", false, json, "same-origin", "http://" + self, 200, "app:/api"},
		{"JSON POST with charset", "", false, json + "; charset=utf-8", "same-origin", "http://" + self, 200, "app:/api"},
		{"JSON POST without browser headers", "", false, json, "", "", 200, "app:/api"},
		{"JSON POST from an old browser", "", false, json, "", "http://" + self, 200, "app:/api"},
		{"rebound name POST", "evil.example:" + port, false, json, "same-origin", "http://evil.example:" + port, 421, "refused Host"},
		{"cross-site Origin", "", false, json, "", "https://evil.example", 403, "cross-site POST /toy/api"},
		{"cross-site Origin, text/plain", "", false, "text/plain", "", "https://evil.example", 403, "cross-site"},
		{"Sec-Fetch-Site cross-site", "", false, json, "cross-site", "https://evil.example", 403, "cross-site"},
		{"Sec-Fetch-Site cross-site without Origin", "", false, json, "cross-site", "", 403, "cross-site"},
		{"Sec-Fetch-Site same-site", "", false, json, "same-site", "http://other.localhost:" + port, 403, "cross-site"},
		{"sandboxed page", "", false, json, "", "null", 403, "cross-site"},
		{"text/plain POST", "", false, "text/plain", "same-origin", "http://" + self, 415, "application/json"},
		{"text/plain POST without browser headers", "", false, "text/plain;charset=UTF-8", "", "", 415, "application/json"},
		{"form POST", "", false, "application/x-www-form-urlencoded", "", "", 415, "application/json"},
		{"multipart POST", "", false, "multipart/form-data; boundary=x", "", "", 415, "application/json"},
		{"POST without a type", "", false, "", "", "", 415, "application/json"},
		{"JSON-ish type", "", false, "application/json-seq", "", "", 415, "application/json"},
	}
	for _, c := range cases {
		hdr := map[string]string{}
		if c.ctype != "" {
			hdr["Content-Type"] = c.ctype
		}
		if c.site != "" {
			hdr["Sec-Fetch-Site"] = c.site
		}
		if c.origin != "" {
			hdr["Origin"] = c.origin
		}
		var b *string
		if !c.get {
			b = &body
		}
		code, got := do(t, ts, c.host, "/toy/api", hdr, b)
		if code != c.want || !strings.Contains(got, c.wantInBody) {
			t.Errorf("%s: %d %q, want %d with %q", c.name, code, got, c.want, c.wantInBody)
		}
	}
	// The site's own files, with the right Host.
	for _, p := range []string{"/", "/static/yomi.css", "/healthz"} {
		if code, _ := do(t, ts, "localhost:"+port, p, nil, nil); code != 200 {
			t.Errorf("GET %s: %d", p, code)
		}
	}
}

// TestGuardOverrides checks AllowedHosts (a name, with or without its port)
// and AnyHost, which keeps the cross-origin and content-type checks.
func TestGuardOverrides(t *testing.T) {
	body := `{}`
	sameOrigin := func(host string) map[string]string {
		return map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", "Origin": "http://" + host}
	}
	for _, c := range []struct {
		name  string
		allow []string
		any   bool
		host  string // %p: the server's port
		hdr   map[string]string
		post  bool
		want  int
	}{
		{"allowed name, any port", []string{"yomi.lan"}, false, "yomi.lan:%p", nil, false, 200},
		{"allowed name POST", []string{"Yomi.LAN"}, false, "yomi.lan:%p", sameOrigin("yomi.lan:%p"), true, 200},
		{"allowed name and port", []string{"yomi.lan:%p"}, false, "yomi.lan:%p", nil, false, 200},
		{"allowed name, other port", []string{"yomi.lan:1"}, false, "yomi.lan:%p", nil, false, 421},
		{"allowed name without port, Host port 80", []string{"yomi.lan:80"}, false, "yomi.lan", nil, false, 200},
		{"other name", []string{"yomi.lan"}, false, "evil.example:%p", nil, false, 421},
		{"invalid entry allows nothing", []string{"http://evil.example/"}, false, "evil.example:%p", nil, false, 421},
		{"any host GET", nil, true, "evil.example:%p", nil, false, 200},
		{"any host same-origin POST", nil, true, "proxy.example", sameOrigin("proxy.example"), true, 200},
		{"any host cross-site POST", nil, true, "proxy.example", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, true, 403},
		{"any host text/plain POST", nil, true, "proxy.example", map[string]string{"Content-Type": "text/plain"}, true, 415},
	} {
		s := testServer()
		s.AnyHost = c.any
		ts := httptest.NewServer(s.Handler())
		u, _ := url.Parse(ts.URL)
		fill := func(v string) string { return strings.ReplaceAll(v, "%p", u.Port()) }
		for _, a := range c.allow {
			s.AllowedHosts = append(s.AllowedHosts, fill(a))
		}
		ts.Config.Handler = s.Handler() // rebuilt now that the port is known
		hdr := map[string]string{}
		for k, v := range c.hdr {
			hdr[k] = fill(v)
		}
		var b *string
		if c.post {
			b = &body
		}
		if code, got := do(t, ts, fill(c.host), "/toy/x", hdr, b); code != c.want {
			t.Errorf("%s: %d %q, want %d", c.name, code, got, c.want)
		}
		ts.Close()
	}
}

// TestHostAllowed checks the address rules for connections the loopback
// tests cannot make: a server bound to 0.0.0.0 or to one interface answers
// to that interface's address only.
func TestHostAllowed(t *testing.T) {
	for _, c := range []struct {
		local string
		host  string
		want  bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "localhost:8080", true},
		{"127.0.0.1:8080", "LocalHost:8080", true},
		{"127.0.0.1:8080", "[::1]:8080", true},
		{"127.0.0.1:8080", "0.0.0.0:8080", true},
		{"127.0.0.1:8080", "localhost", false},
		{"127.0.0.1:80", "localhost", true},
		{"127.0.0.1:8080", "localhost.:8080", false},
		{"127.0.0.1:8080", "localhost.evil.example:8080", false},
		{"127.0.0.1:8080", "192.168.1.5:8080", false},
		{"[::1]:8080", "[::1]:8080", true},
		{"[::1]:8080", "localhost:8080", true},
		{"[::ffff:127.0.0.1]:8080", "127.0.0.1:8080", true},
		{"192.168.1.5:8080", "192.168.1.5:8080", true},
		{"192.168.1.5:8080", "[::ffff:192.168.1.5]:8080", true},
		{"192.168.1.5:8080", "localhost:8080", false},
		{"192.168.1.5:8080", "127.0.0.1:8080", false},
		{"192.168.1.5:8080", "mybox.lan:8080", false},
		{"192.168.1.5:8080", "192.168.1.6:8080", false},
		{"[fe80::1%eth0]:8080", "[fe80::1]:8080", true},
		{"127.0.0.1:8080", "::1:8080", false},
		{"127.0.0.1:8080", "", false},
		{"[::1]:80", "[::1", false},
		{"[::1]:80", "::1]", false},
		{"[::1]:80", "[::1]", true},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = c.host
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.TCPAddrFromAddrPort(mustAddrPort(t, c.local))))
		if got := hostAllowed(r, nil); got != c.want {
			t.Errorf("local %s, Host %q: %v, want %v", c.local, c.host, got, c.want)
		}
	}
	// Without a recorded local address only the allowed names pass.
	r := httptest.NewRequest("GET", "/", nil)
	r.Host = "localhost:8080"
	if hostAllowed(r, nil) || !hostAllowed(r, []hostRule{{"localhost", ""}}) {
		t.Error("a request without a local address")
	}
}

func mustAddrPort(t *testing.T, s string) netip.AddrPort {
	t.Helper()
	a, err := netip.ParseAddrPort(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestCheckAllowedHost(t *testing.T) {
	for _, ok := range []string{"yomi.lan", "yomi.lan:8080", "Yomi-Box_1", "10.0.0.1", "10.0.0.1:80", "[::1]:8080", "[::1]", "::1", "localhost:65535"} {
		if err := CheckAllowedHost(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "http://yomi.lan", "yomi.lan/", "yomi.lan:", ":8080", "yomi.lan:0", "yomi.lan:65536", "yomi.lan:http", "yomi.lan:080", "yo mi", "a:b:c", "[::1", "é.lan"} {
		if err := CheckAllowedHost(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
