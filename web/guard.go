// This file holds the checks every request passes before a handler sees it,
// because any web page the user visits can send requests to a server on
// localhost: the Host check (against DNS rebinding), the cross-origin check
// of state-changing requests, and the JSON content type of request bodies.

package web

import (
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// hostRule is one allowed Host: a lower-case name or IP, and a port ("" for
// any port).
type hostRule struct{ name, port string }

// parseHostRule reads NAME, NAME:PORT, [IPv6] or [IPv6]:PORT.
func parseHostRule(s string) (hostRule, error) {
	if s == "" {
		return hostRule{}, errors.New("empty host")
	}
	if strings.Contains(s, "/") {
		return hostRule{}, fmt.Errorf("%q: give a host name (NAME or NAME:PORT), not a URL", s)
	}
	name, port, err := net.SplitHostPort(s)
	if err != nil {
		// No port: a name, an IPv4 address, or an IPv6 address with or
		// without brackets.
		name, port = unbracket(s), ""
		if strings.Contains(name, ":") || strings.ContainsAny(name, "[]") {
			if _, err := netip.ParseAddr(name); err != nil {
				return hostRule{}, fmt.Errorf("%q: not NAME or NAME:PORT", s)
			}
		}
	} else if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
		return hostRule{}, fmt.Errorf("%q: port must be a number in 1..65535", s)
	}
	if name == "" {
		return hostRule{}, fmt.Errorf("%q: empty host name", s)
	}
	if _, err := netip.ParseAddr(name); err != nil {
		for _, c := range name {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
				return hostRule{}, fmt.Errorf("%q: %q is not a host name character", s, c)
			}
		}
	}
	return hostRule{strings.ToLower(name), port}, nil
}

// CheckAllowedHost reports whether s is a valid Server.AllowedHosts entry
// (NAME, NAME:PORT, [IPv6] or [IPv6]:PORT), so that a command line can refuse
// a bad one before serving.
func CheckAllowedHost(s string) error {
	_, err := parseHostRule(s)
	return err
}

// splitRequestHost splits a Host header into a lower-case name (IPv6
// without brackets) and a port (80 when absent: the server speaks plain HTTP).
func splitRequestHost(h string) (name, port string, ok bool) {
	if h == "" {
		return "", "", false
	}
	name, port, err := net.SplitHostPort(h)
	if err != nil {
		name, port = unbracket(h), "80"
		if strings.ContainsAny(name, "[]") || strings.Contains(name, ":") && name == h {
			return "", "", false // unbalanced brackets, or an IPv6 address without them
		}
	}
	if name == "" || port == "" {
		return "", "", false
	}
	return strings.ToLower(name), port, true
}

// unbracket removes the brackets around an IPv6 address.
func unbracket(s string) string {
	if len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']' {
		return s[1 : len(s)-1]
	}
	return s
}

// guard wraps h with the checks in the order a refusal is most useful to
// read: Host (421), cross-origin (403), content type (415).
func (s *Server) guard(h http.Handler) http.Handler {
	var rules []hostRule
	for _, a := range s.AllowedHosts {
		if r, err := parseHostRule(a); err == nil {
			rules = append(rules, r)
		}
	}
	cop := http.NewCrossOriginProtection()
	refuse := func(w http.ResponseWriter, r *http.Request, status int, msg string) {
		if s.Logger != nil {
			s.Logger.Printf("refused %s %s (Host %q, Origin %q, Sec-Fetch-Site %q): %d", r.Method, r.URL.Path,
				r.Host, r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site"), status)
		}
		http.Error(w, msg, status)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.AnyHost && !hostAllowed(r, rules) {
			refuse(w, r, http.StatusMisdirectedRequest, hostRefusal(r))
			return
		}
		if err := cop.Check(r); err != nil {
			refuse(w, r, http.StatusForbidden, fmt.Sprintf(
				"yomi serve: refused a cross-site %s %s (%v): pages of other sites may not use this server.", r.Method, r.URL.Path, err))
			return
		}
		if !safeMethod(r.Method) {
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				w.Header().Set("Accept", "application/json")
				refuse(w, r, http.StatusUnsupportedMediaType, fmt.Sprintf(
					"yomi serve: a %s body must be Content-Type: application/json, got %q.", r.Method, r.Header.Get("Content-Type")))
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// safeMethod tells the methods that change nothing, as
// http.CrossOriginProtection counts them.
func safeMethod(m string) bool { return m == "GET" || m == "HEAD" || m == "OPTIONS" }

// localAddr is the address the request's connection was accepted on (invalid
// when the server did not record one).
func localAddr(r *http.Request) netip.AddrPort {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr); ok {
		ap := a.AddrPort()
		return netip.AddrPortFrom(ap.Addr().Unmap().WithZone(""), ap.Port())
	}
	return netip.AddrPort{}
}

// hostAllowed tells whether r's Host names this server: an allowed rule, or
// the address the connection arrived on (with the same port), where a
// loopback address also answers to localhost, *.localhost and the other
// loopback and unspecified literals. A DNS-rebinding page's own name matches
// none of these.
func hostAllowed(r *http.Request, rules []hostRule) bool {
	name, port, ok := splitRequestHost(r.Host)
	if !ok {
		return false
	}
	for _, rule := range rules {
		if rule.name == name && (rule.port == "" || rule.port == port) {
			return true
		}
	}
	local := localAddr(r)
	if !local.IsValid() || strconv.Itoa(int(local.Port())) != port {
		return false
	}
	if ip, err := netip.ParseAddr(name); err == nil {
		ip = ip.Unmap().WithZone("")
		return ip == local.Addr() || local.Addr().IsLoopback() && (ip.IsLoopback() || ip.IsUnspecified())
	}
	return local.Addr().IsLoopback() && (name == "localhost" || strings.HasSuffix(name, ".localhost"))
}

// hostRefusal explains a refused Host and how to allow it.
func hostRefusal(r *http.Request) string {
	served := "this server's address"
	if l := localAddr(r); l.IsValid() {
		served = l.String()
		if l.Addr().IsLoopback() {
			served += fmt.Sprintf(" or localhost:%d", l.Port())
		}
	}
	name, port, ok := splitRequestHost(r.Host)
	allow := "--allow-host NAME[:PORT]"
	if ok {
		allow = "--allow-host " + net.JoinHostPort(name, port)
	}
	return fmt.Sprintf("yomi serve: refused Host %q: this server answers to %s. Another name could be a web page "+
		"reaching it through its own domain (DNS rebinding). To use this name, start it with %s "+
		"(or --any-host behind a reverse proxy that checks Host).", r.Host, served, allow)
}
