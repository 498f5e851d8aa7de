package dev.wharf.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What {@code wharf --version} prints: the release, the git commit and the build time, written into
 * {@value #RESOURCE} by the build (resource filtering). A build outside a git checkout records "unknown" as the
 * commit; classes run without the filtered resource (an IDE) report a development build.
 */
record BuildInfo(String version, String commit, String buildTime) {

    static final String RESOURCE = "/dev/wharf/server/build.properties";
    private static final String UNKNOWN = "unknown";

    static BuildInfo current() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // reported as unknown below: the version line must never fail
        }
        return new BuildInfo(value(p, "version", "(development build)"), value(p, "commit", UNKNOWN),
                value(p, "buildTime", UNKNOWN));
    }

    /** A value, or the fallback when missing or left unfiltered ("${...}"). */
    private static String value(Properties p, String key, String fallback) {
        String v = p.getProperty(key, "").trim();
        return v.isEmpty() || v.contains("${") ? fallback : v;
    }

    String[] lines() {
        return new String[] {"Wharf " + version, "commit " + commit + ", built " + buildTime};
    }
}
