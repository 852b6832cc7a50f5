package serve

import (
	"net/http/httptest"
	"testing"
)

// TestClientAddr checks what counts as one client: an IPv4 address, and
// the /64 network of an IPv6 one, whatever the port.
func TestClientAddr(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"192.0.2.7:5000", "192.0.2.7"},
		{"[2001:db8:1:2:aaaa::1]:5000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:6000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:5000", "2001:db8:1:3::/64"},
		{"[::ffff:192.0.2.7]:5000", "::ffff:192.0.2.7"},
		{"[::1]:5000", "::/64"},
		{"pipe", "pipe"},
	} {
		r := httptest.NewRequest("GET", "/export/8.json", nil)
		r.RemoteAddr = tc.remote
		if got := clientAddr(r); got != tc.want {
			t.Errorf("clientAddr(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}
