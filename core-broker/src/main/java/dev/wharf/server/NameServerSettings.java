package dev.wharf.server;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The settings of {@code wharf namesrv}: the NameServer's bean and its listener's, filled from an optional
 * {@code namesrv.conf} (RocketMQ's key names, properties syntax) and then from the {@code --port}/{@code --bind}
 * flags that were given. An unknown key or a bad value is reported with the key and the file.
 */
record NameServerSettings(NameServerConfig nameServer, NettyServerConfig netty) {

    static final int DEFAULT_PORT = 9876;

    /**
     * @param file the configuration file, or null
     * @param port the --port flag when given, else null
     * @param bind the --bind flag when given, else null
     */
    static NameServerSettings assemble(Path file, Integer port, String bind) throws IOException {
        NameServerSettings out = new NameServerSettings(new NameServerConfig(), new NettyServerConfig());
        out.netty.setListenPort(DEFAULT_PORT);
        if (file != null) {
            String source = "the NameServer configuration file " + file;
            try {
                BeanBinder.bindStrict(read(file), source, out.nameServer, out.netty);
            } catch (IllegalArgumentException e) {
                if (e.getMessage() != null && e.getMessage().contains(source)) {
                    throw e;
                }
                throw new IllegalArgumentException(e.getMessage() + " (in " + source + ")", e);
            }
        }
        if (port != null) {
            out.netty.setListenPort(port);
        }
        if (bind != null) {
            out.netty.setBindAddress(bind);
        }
        return out;
    }

    private static Map<String, String> read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "The NameServer configuration file " + file
                    + " does not exist; give the path of a key=value file (--config FILE).");
        } catch (CharacterCodingException e) {
            throw new IOException("The NameServer configuration file " + file + " is not UTF-8 text; save it as UTF-8.",
                    e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String key : properties.stringPropertyNames()) {
            out.put(key, properties.getProperty(key).trim());
        }
        return out;
    }
}
