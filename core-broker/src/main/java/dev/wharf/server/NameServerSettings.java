package dev.wharf.server;

import dev.wharf.common.config.BeanBinder;
import dev.wharf.controller.ControllerConfig;
import dev.wharf.namesrv.NameServerConfig;
import dev.wharf.remoting.NettyServerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The settings of {@code wharf namesrv}: the NameServer's bean, its listener's and its embedded controller's,
 * filled from an optional {@code namesrv.conf} (RocketMQ's key names, properties syntax; a key given twice is an
 * error), then from the flags that were given. An unknown key or a bad value is reported with the key and the file.
 */
record NameServerSettings(NameServerConfig nameServer, NettyServerConfig netty, ControllerConfig controller) {

    static final int DEFAULT_PORT = 9876;

    /**
     * @param file the configuration file, or null
     * @param port the --port flag when given, else null
     * @param bind the --bind flag when given, else null
     */
    static NameServerSettings assemble(Path file, Integer port, String bind) throws IOException {
        return assemble(file, port, bind, Map.of());
    }

    /**
     * @param flags settings given by other flags (the controller's), applied over the file's
     */
    static NameServerSettings assemble(Path file, Integer port, String bind, Map<String, String> flags)
            throws IOException {
        NameServerSettings out = new NameServerSettings(new NameServerConfig(), new NettyServerConfig(),
                new ControllerConfig());
        out.netty.setListenPort(DEFAULT_PORT);
        ConfigLayers layers = ConfigLayers.of("NameServer configuration file", file, Map.of(), flags);
        String source = layers.source();
        try {
            BeanBinder.bindStrict(layers.merged(), source, out.nameServer, out.netty, out.controller);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().contains(source)) {
                throw e;
            }
            throw new IllegalArgumentException(e.getMessage() + " (in " + source + ")", e);
        }
        if (port != null) {
            out.netty.setListenPort(port);
        }
        if (bind != null) {
            out.netty.setBindAddress(bind);
        }
        return out;
    }
}
