/**
 * Configuration files and settings: reading {@code key=value} files (refusing a key given twice) and binding
 * string settings (config files, URL parameters, flags) to configuration beans by key name.
 */
package dev.wharf.common.config;
