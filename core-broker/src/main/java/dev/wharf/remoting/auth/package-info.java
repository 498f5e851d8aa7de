/**
 * Applies {@code dev.wharf.security} to the remoting layer: {@link dev.wharf.remoting.auth.AclGuard} checks every
 * request a server receives (signature, then the rights its request code needs, see
 * {@link dev.wharf.remoting.auth.RequestAccess}); {@link dev.wharf.remoting.auth.SigningHook} signs every request a
 * client sends; {@link dev.wharf.remoting.auth.ServerSecurity} installs both from a server's settings.
 */
package dev.wharf.remoting.auth;
