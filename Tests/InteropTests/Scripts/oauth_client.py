#!/usr/bin/env python3
"""An independent OAuth 2.0 native-app client: Authlib (Debian's python3-authlib), not WOPIKit code.

RFC 8252 as a third-party app would do it with a stock library: discover the endpoints from the issuer's RFC 8414
metadata, listen on a loopback port chosen by the OS, send an authorization request with PKCE S256 and state
(Authlib makes both), play the browser by submitting the sign-in form like a person would (hidden fields and
cookie included), receive the redirect on the loopback listener, let Authlib check state and redeem the code,
check `iss` (RFC 9207), refresh once, and call the bootstrapper with the access token.
  oauth_client.py ISSUER BOOTSTRAPPER CLIENT_ID USERNAME PASSWORD
Prints one JSON object: access_token, expires_in, refreshed_access_token, rotated_refresh_token, bootstrap.
On failure prints {"error": ...} and exits 1.
"""
import json
import os
import sys
import threading
import urllib.parse
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, HTTPServer

import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session

os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http on loopback, as RFC 8252 §7.3 allows
issuer, bootstrapper, client_id, username, password = sys.argv[1:6]


def fail(message):
    print(json.dumps({"error": message}))
    sys.exit(1)


metadata = requests.get(issuer.rstrip("/") + "/.well-known/oauth-authorization-server", timeout=10).json()
if metadata.get("issuer") != issuer or "S256" not in metadata.get("code_challenge_methods_supported", []):
    fail("metadata: %r" % metadata)

callback = {}


class Loopback(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        callback["url"] = "http://127.0.0.1:%d%s" % (self.server.server_address[1], self.path)
        body = b"Signed in; you can close this tab."
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


listener = HTTPServer(("127.0.0.1", 0), Loopback)
redirect_uri = "http://127.0.0.1:%d/callback" % listener.server_address[1]
waiter = threading.Thread(target=listener.handle_request)
waiter.start()

client = OAuth2Session(client_id, redirect_uri=redirect_uri, code_challenge_method="S256",
                       token_endpoint_auth_method="none")
verifier = generate_token(64)
authorization_url, state = client.create_authorization_url(metadata["authorization_endpoint"],
                                                           code_verifier=verifier)


class Form(HTMLParser):
    def __init__(self):
        super().__init__()
        self.action, self.fields = None, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.action = attrs.get("action")
        elif tag == "input" and attrs.get("type") == "hidden":
            self.fields[attrs["name"]] = attrs.get("value", "")


browser = requests.Session()
page = Form()
page.feed(browser.get(authorization_url, timeout=10).text)
if page.action is None:
    fail("no sign-in form")
page.fields.update(username=username, password=password)
answer = browser.post(urllib.parse.urljoin(authorization_url, page.action), data=page.fields,
                      allow_redirects=False, timeout=10)
location = answer.headers.get("Location", "")
if answer.status_code != 302 or not location.startswith(redirect_uri):
    fail("sign-in answered %d, Location %r" % (answer.status_code, location))
browser.get(location, timeout=10)  # the browser follows the redirect to the loopback listener
waiter.join(5)
listener.server_close()
if "url" not in callback:
    fail("the loopback listener got no request")
returned = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback["url"]).query))
if returned.get("iss") != issuer:
    fail("iss mismatch: %r" % returned.get("iss"))

# fetch_token checks the returned state against the one it made (MismatchingStateException otherwise).
tokens = client.fetch_token(metadata["token_endpoint"], authorization_response=callback["url"],
                            state=state, code_verifier=verifier)
if not isinstance(tokens.get("expires_in"), int):
    fail("expires_in is not a number: %r" % tokens.get("expires_in"))
refreshed = client.refresh_token(metadata["token_endpoint"], refresh_token=tokens["refresh_token"])
bootstrap = client.get(bootstrapper, timeout=10)
if bootstrap.status_code != 200:
    fail("bootstrapper answered %d" % bootstrap.status_code)
print(json.dumps({"access_token": tokens["access_token"], "expires_in": tokens["expires_in"],
                  "refreshed_access_token": refreshed["access_token"],
                  "rotated_refresh_token": refreshed.get("refresh_token") != tokens["refresh_token"],
                  "bootstrap": bootstrap.json()}))
