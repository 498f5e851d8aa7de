/**
 * Talking to the controller from a broker ({@link dev.wharf.controller.client.ControllerClient}: register, heartbeat,
 * report sync-state set changes, hear of role changes) and from the admin tools
 * ({@link dev.wharf.controller.client.ControllerAdmin}). Both find the leader among the configured controller
 * addresses and follow its redirects ({@link dev.wharf.controller.client.ControllerInvoker}). Knows only protocol,
 * remoting and common: a broker can use it without the controller server classes.
 */
package dev.wharf.controller.client;
