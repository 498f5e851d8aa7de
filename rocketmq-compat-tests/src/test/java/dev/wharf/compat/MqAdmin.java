package dev.wharf.compat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.PosixParser;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.srvutil.ServerUtil;
import org.apache.rocketmq.tools.command.SubCommand;

/**
 * Runs one of {@code mqadmin}'s sub-commands in this JVM the way its start-up class does (options parsed, the
 * NameServer address taken from {@code -n}), and returns what it printed. A failing command throws its
 * {@code SubCommandException}, which the start-up class would only print.
 */
final class MqAdmin {

    private MqAdmin() {
    }

    @SuppressWarnings("deprecation")
    static synchronized String run(String namesrvAddr, SubCommand command, String... args) throws Exception {
        Options options = command.buildCommandlineOptions(ServerUtil.buildCommandlineOptions(new Options()));
        String[] all = new String[args.length + 2];
        all[0] = "-n";
        all[1] = namesrvAddr;
        System.arraycopy(args, 0, all, 2, args.length);
        // the parser both tools lines have (4.9.x ships a commons-cli without DefaultParser)
        CommandLine line = new PosixParser().parse(options, all);
        // what MQAdminStartup does with -n: the admin client reads the address from this property
        System.setProperty(MixAll.NAMESRV_ADDR_PROPERTY, namesrvAddr);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            command.execute(line, options, null);
        } finally {
            System.setOut(previous);
            System.clearProperty(MixAll.NAMESRV_ADDR_PROPERTY);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        previous.print(printed);
        return printed;
    }

}
