# Varnish in front of calendar-gateway (Debian: apt install varnish varnish-modules). It caches anonymous GETs for as
# long as the gateway's Cache-Control says (s-maxage while CDN_PURGE=varnish), and drops them when the gateway purges
# their cache tags (the `xkey` header of each answer, vmod xkey). docs/deploy.md has the recipe.
vcl 4.1;

import xkey;

backend gateway {
    .host = "127.0.0.1";
    .port = "3000";
}

# Who may purge: the gateway instances. Add the address of every host a gateway runs on; gateways without fixed
# addresses (autoscaled, behind NAT) can prove themselves with CDN_PURGE_TOKEN instead: see vcl_recv below.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "PURGE" || req.method == "BAN") {
        # With gateways on hosts not listed above, replace the test by (the token being CDN_PURGE_TOKEN):
        #   if (client.ip !~ purgers && req.http.X-Purge-Token != "the-token") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (req.method == "BAN") {
            # The operators' purge of everything (POST /calendar-gateway/v1/purge).
            ban("obj.status != 0");
            return (synth(200, "Banned"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "xkey-purge header missing"));
        }
        set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.n-gone));
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # Tracking parameters (utm_*, fbclid, gclid, msclkid, Mailchimp's mc_cid/mc_eid, Google Analytics' _ga/_gl, …)
    # change nothing in an answer: taken off before the cache looks, so a shared link with one is a HIT. The gateway
    # ignores every name a route does not take anyway; this keeps them from splitting Varnish's cache too.
    if (req.url ~ "(?i)[?&](utm_[a-z0-9_]*|fbclid|gclid|gclsrc|dclid|gbraid|wbraid|msclkid|twclid|ttclid|li_fat_id|igshid|yclid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok|oly_anon_id|oly_enc_id|rb_clickid|s_cid|vero_conv|vero_id|wickedid)(=|&|$)") {
        set req.url = regsuball(req.url, "(?i)([?&])(utm_[a-z0-9_]*|fbclid|gclid|gclsrc|dclid|gbraid|wbraid|msclkid|twclid|ttclid|li_fat_id|igshid|yclid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok|oly_anon_id|oly_enc_id|rb_clickid|s_cid|vero_conv|vero_id|wickedid)(=[^&]*)?(?=&|$)", "\1");
        # What the removals left: `?&a`, `a&&b`, a trailing `?` or `&`.
        set req.url = regsuball(req.url, "&{2,}", "&");
        set req.url = regsub(req.url, "\?&", "?");
        set req.url = regsub(req.url, "[?&]$", "");
    }
    # Signed-in callers (Basic, application passwords, a WordPress cookie + nonce) are answered for themselves alone.
    if (req.http.Authorization || req.http.Cookie || req.http.X-WP-Nonce) {
        return (pass);
    }
    return (hash);
}

sub vcl_backend_response {
    # Varnish's built-in rules follow: Cache-Control (s-maxage first), no caching of private/no-store answers.
    if (beresp.http.Cache-Control !~ "(public|s-maxage)") {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
}

sub vcl_deliver {
    # The tags are for this cache alone.
    unset resp.http.xkey;
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}
