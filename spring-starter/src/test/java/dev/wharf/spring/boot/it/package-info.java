/**
 * End-to-end tests of the starter in a whole Boot application (a small shop), including a child JVM that halts
 * inside its transaction.
 */
package dev.wharf.spring.boot.it;
