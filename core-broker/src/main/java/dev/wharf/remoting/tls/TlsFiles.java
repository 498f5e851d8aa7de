package dev.wharf.remoting.tls;

import io.netty.handler.ssl.SslContextBuilder;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;

/** Reads key material named by settings, with errors that name the setting and the file. */
final class TlsFiles {

    private TlsFiles() {
    }

    static boolean isKeyStore(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        return lower.endsWith(".p12") || lower.endsWith(".pfx");
    }

    static File existing(String path, String setting) {
        Path p = Path.of(path);
        if (!Files.isReadable(p)) {
            throw new IllegalArgumentException(setting + " names " + p.toAbsolutePath() + ", which does not exist or"
                    + " cannot be read");
        }
        return p.toFile();
    }

    /** A key manager factory over a PKCS#12 key store. */
    static KeyManagerFactory keyStore(String path, String password, String setting) {
        File file = existing(path, setting);
        char[] pw = password == null ? new char[0] : password.toCharArray();
        try (InputStream in = Files.newInputStream(file.toPath())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, pw);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, pw);
            return kmf;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(setting + ": cannot read the PKCS#12 key store " + file + " ("
                    + e.getMessage() + "); check the file and its password", e);
        }
    }

    /** Adds this side's own certificate and key (PEM pair or PKCS#12 key store) to a client builder. */
    static void keyMaterial(SslContextBuilder builder, String certPath, String keyPath, String password,
                            String certSetting, String keySetting) {
        if (isKeyStore(certPath)) {
            builder.keyManager(keyStore(certPath, password, certSetting));
            return;
        }
        if (keyPath.isEmpty()) {
            throw new IllegalArgumentException(certSetting + " is a PEM certificate, so " + keySetting + " must name"
                    + " its PKCS#8 PEM private key");
        }
        builder.keyManager(existing(certPath, certSetting), existing(keyPath, keySetting),
                password.isEmpty() ? null : password);
    }
}
