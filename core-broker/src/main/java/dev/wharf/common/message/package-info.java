/**
 * The message model shared by store, broker and client: the application message, the stored message, the
 * record layout that is both the commit-log format and the pull wire format, ids and property names.
 */
package dev.wharf.common.message;
