/**
 * Users, password hashing, access policies and their evaluation, and request signing and verification, in plain
 * Java: no Netty, no protocol types. The remoting layer ({@code dev.wharf.remoting.auth}) applies them to requests;
 * clients use {@link dev.wharf.security.Credentials} to sign what they send.
 *
 * <p>Scheme in one paragraph: a user's password is stretched with PBKDF2-HMAC-SHA256 (salt derived from the user
 * name, {@link dev.wharf.security.PasswordHasher#ITERATIONS} rounds) into a 256-bit signing key. The server keeps
 * only that key (never the password); a client derives it once and signs every request with HMAC-SHA256 over the
 * request code, its header fields, a timestamp and its body. A request is accepted when the signature matches
 * (constant-time comparison) and the timestamp lies within the server's replay window. Instead of signing every
 * request, a client may sign one handshake request per connection that answers a nonce the server issued for that
 * connection; the server then keeps a {@link dev.wharf.security.Session} for the connection, which ends when a reload
 * of the users file deletes the user or changes its key.
 */
package dev.wharf.security;
