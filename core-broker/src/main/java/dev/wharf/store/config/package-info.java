/**
 * Files under {@code config/} (topics, consumer offsets, delay offsets): {@link dev.wharf.store.config.ConfigFile}
 * replaces a file atomically (temp file, force, rename) and keeps the previous version as {@code .bak}, used
 * when the file is found corrupt. The broker builds its JSON managers on it.
 */
package dev.wharf.store.config;
