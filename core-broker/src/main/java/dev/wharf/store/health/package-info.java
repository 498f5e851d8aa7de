/**
 * Whether the store may take writes: a full disk, a stuck dispatcher or a fault a service thread could not survive
 * each refuse puts with a reason the client sees, and health reports them. A leaf room: every other part of the
 * store may report here, and it depends on none of them.
 */
package dev.wharf.store.health;
