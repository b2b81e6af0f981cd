#!/usr/bin/env python3
"""An independent OAuth 2.0 authorization server with a WOPI-style bootstrapper: Authlib's RFC 6749 server on Flask
(Debian's python3-authlib and python3-flask), not WOPIKit code.

Authlib does the protocol: the authorization code grant with PKCE (RFC 7636, required for public clients),
refresh tokens with rotation, client authentication `none` for the public native client `wopi-cli`, RFC 6749 §5.2
errors. This file only supplies storage in dictionaries, one user who approves at once (there is no page to fill),
RFC 8252 §7.3 loopback redirect matching (any port), and a bootstrapper that answers a missing or unknown bearer
token with the CSPP `WWW-Authenticate` challenge.
  oauth_server.py [--mode ok|deny|wrong-state]
Prints "listening on http://127.0.0.1:PORT" once ready.
"""
import os
import secrets
import signal
import sys
import time
import urllib.parse

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import AuthorizationCodeMixin, ClientMixin, TokenMixin, grants
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import Flask, jsonify, request
from werkzeug.serving import make_server

os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http on loopback, as RFC 8252 §7.3 allows
MODE = sys.argv[sys.argv.index("--mode") + 1] if "--mode" in sys.argv else "ok"
USER = {"id": "indie-user", "sign_in_name": "indie@example.org", "name": "Indie User"}
CODES, ACCESS, REFRESH = {}, {}, {}


class NativeClient(ClientMixin):
    """The public native client `wopi-cli`: no secret, loopback redirects on any port."""

    def get_client_id(self):
        return "wopi-cli"

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        return scope or ""

    def check_redirect_uri(self, redirect_uri):
        parts = urllib.parse.urlsplit(redirect_uri)
        return parts.scheme == "http" and parts.hostname in ("127.0.0.1", "::1")

    def check_client_secret(self, client_secret):
        return False

    def check_endpoint_auth_method(self, method, endpoint):
        return method == "none"

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in ("authorization_code", "refresh_token")


class Code(AuthorizationCodeMixin):
    def __init__(self, request):
        self.redirect_uri, self.scope = request.redirect_uri, request.scope or ""
        self.code_challenge = request.data.get("code_challenge")
        self.code_challenge_method = request.data.get("code_challenge_method")
        self.expires_at = time.time() + 600

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope


class Token(TokenMixin):
    def __init__(self, token):
        self.token, self.revoked, self.issued_at = token, False, time.time()

    def check_client(self, client):
        return client.get_client_id() == "wopi-cli"

    def get_scope(self):
        return self.token.get("scope", "")

    def get_expires_in(self):
        return self.token["expires_in"]

    def is_expired(self):
        return time.time() > self.issued_at + self.get_expires_in()

    def is_revoked(self):
        return self.revoked


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]

    def save_authorization_code(self, code, request):
        CODES[code] = Code(request)

    def query_authorization_code(self, code, client):
        entry = CODES.get(code)
        return entry if entry and time.time() < entry.expires_at else None

    def delete_authorization_code(self, authorization_code):
        for code, entry in list(CODES.items()):
            if entry is authorization_code:
                del CODES[code]

    def authenticate_user(self, authorization_code):
        return USER


class RefreshGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token):
        token = REFRESH.get(refresh_token)
        return token if token and not token.is_revoked() else None

    def authenticate_user(self, credential):
        return USER

    def revoke_old_credential(self, credential):
        credential.revoked = True


def save_token(token, request):
    entry = Token(token)
    ACCESS[token["access_token"]] = entry
    if "refresh_token" in token:
        REFRESH[token["refresh_token"]] = entry


app = Flask(__name__)
app.config.update(OAUTH2_REFRESH_TOKEN_GENERATOR=True, OAUTH2_TOKEN_EXPIRES_IN={"authorization_code": 3600})
server = AuthorizationServer(app, query_client=lambda client_id: NativeClient() if client_id == "wopi-cli" else None,
                             save_token=save_token)
server.register_grant(CodeGrant, [CodeChallenge(required=True)])
server.register_grant(RefreshGrant)


def base():
    return request.host_url.rstrip("/")


@app.route("/authorize")
def authorize():
    response = server.create_authorization_response(grant_user=None if MODE == "deny" else USER)
    if MODE == "wrong-state" and response.status_code == 302:
        location = urllib.parse.urlsplit(response.headers["Location"])
        query = dict(urllib.parse.parse_qsl(location.query), state="forged-" + secrets.token_hex(8))
        response.headers["Location"] = location._replace(query=urllib.parse.urlencode(query)).geturl()
    return response


@app.route("/token", methods=["POST"])
def issue_token():
    return server.create_token_response()


@app.route("/wopibootstrapper", methods=["GET", "POST"])
def bootstrapper():
    header = request.headers.get("Authorization", "")
    token = ACCESS.get(header[len("Bearer "):]) if header.startswith("Bearer ") else None
    if token is None or token.is_expired() or token.is_revoked():
        challenge = 'Bearer authorization_uri="%s/authorize",tokenIssuance_uri="%s/token"' % (base(), base())
        return "", 401, {"WWW-Authenticate": challenge}
    body = {"Bootstrap": {"EcosystemUrl": base() + "/wopi/ecosystem?access_token=eco", "UserId": USER["id"],
                          "SignInName": USER["sign_in_name"], "UserFriendlyName": USER["name"]}}
    if request.headers.get("X-WOPI-EcosystemOperation", "").upper() == "GET_ROOT_CONTAINER":
        body["RootContainerInfo"] = {
            "ContainerPointer": {"Name": "Root", "Url": base() + "/wopi/containers/root?access_token=root"},
            "ContainerInfo": {"Name": "Root"}}
    return jsonify(body)


# A test runner's threads may start us with SIGTERM blocked or ignored (both survive exec): take it back, so that
# the test can stop us.
signal.signal(signal.SIGTERM, signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
listener = make_server("127.0.0.1", 0, app, threaded=True)
print("listening on http://127.0.0.1:%d" % listener.server_port, flush=True)
listener.serve_forever()
