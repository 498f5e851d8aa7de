/** Small concurrency helpers: background service threads and named thread factories. */
package dev.wharf.common.util;
