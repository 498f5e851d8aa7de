/** Message model, ids, name rules, system topic names and small utilities shared by every other package. */
package dev.wharf.common;
