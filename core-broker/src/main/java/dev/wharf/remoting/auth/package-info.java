/**
 * Applies {@code dev.wharf.security} to the remoting layer: {@link dev.wharf.remoting.auth.AclGuard} checks every
 * request a server receives (its connection's session or its own signature, then the rights its request code needs,
 * see {@link dev.wharf.remoting.auth.RequestAccess}) and serves the session handshake
 * ({@link dev.wharf.remoting.auth.SessionHandshake}); {@link dev.wharf.remoting.auth.SigningHook} opens a session on
 * each connection a client makes, or signs its every request where the server offers none;
 * {@link dev.wharf.remoting.auth.ServerSecurity} installs the server's side from its settings.
 */
package dev.wharf.remoting.auth;
