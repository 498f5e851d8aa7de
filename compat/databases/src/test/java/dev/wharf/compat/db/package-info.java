/**
 * Real PostgreSQL and MariaDB servers started by the tests from binaries shipped as Maven artifacts, and the
 * transaction log's tests on them.
 */
package dev.wharf.compat.db;
