package dev.wharf.remoting.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates made for a test with the JDK's keytool (nothing is committed): a PKCS#12 key store holding
 * key and certificate (for 127.0.0.1 and localhost), and the certificate alone as PEM, to trust it.
 */
public record TestCertificates(Path keyStore, Path certificatePem) {

    /** The key store's password (a throw-away for the test's own certificate). */
    public static final String STORE_PASSWORD = "test-store-pass";

    public static TestCertificates create(Path dir, String name) throws IOException, InterruptedException {
        Path store = dir.resolve(name + ".p12");
        Path pem = dir.resolve(name + ".pem");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=" + name, "-ext", "san=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", STORE_PASSWORD, "-file", pem.toString());
        return new TestCertificates(store, pem);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + output);
        }
    }
}
