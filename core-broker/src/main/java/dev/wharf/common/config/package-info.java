/** Binding of string settings (config files, URL parameters, flags) to configuration beans by key name. */
package dev.wharf.common.config;
