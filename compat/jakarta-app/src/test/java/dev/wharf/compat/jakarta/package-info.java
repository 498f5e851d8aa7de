/** Runs the plain Jakarta EE style application in a child JVM against a broker in the test's JVM. */
package dev.wharf.compat.jakarta;
