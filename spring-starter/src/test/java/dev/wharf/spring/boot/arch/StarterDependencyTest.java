package dev.wharf.spring.boot.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.wharf.broker.Broker;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import dev.wharf.store.FlushDiskType;
import dev.wharf.store.MessageStoreConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The starter reaches the broker only through the embedded server: it uses the JMS provider, the client, the
 * protocol's data, the transaction checker, the embedded server and the broker's settings, and none of the broker's,
 * store's, remoting's or NameServer's internals.
 */
class StarterDependencyTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.wharf.spring");
    }

    @Test
    void theStarterUsesOnlyThePublicSurfaceOfWharf() {
        classes().that().resideInAPackage("dev.wharf.spring..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage("dev.wharf..").or(resideInAnyPackage(
                        "dev.wharf.spring..", "dev.wharf.jms..", "dev.wharf.client..", "dev.wharf.protocol..",
                        "dev.wharf.common..", "dev.wharf.txchecker..", "dev.wharf.embedded..",
                        "dev.wharf.broker.config..")).or(belongToAnyOf(MessageStoreConfig.class,
                        NettyServerConfig.class, FlushDiskType.class, Broker.class)))
                .check(classes);
    }

    @Test
    void onlyTheEmbeddedBrokerBeanStartsServersOrHandsOutTheBroker() {
        noClasses().that().resideInAPackage("dev.wharf.spring..")
                .and().doNotBelongToAnyOf(EmbeddedWharfBroker.class)
                .should().dependOnClassesThat().belongToAnyOf(EmbeddedServer.class, Broker.class)
                .check(classes);
    }

    @Test
    void noCyclesBetweenTheStartersPackages() {
        slices().matching("dev.wharf.spring.(**)").should().beFreeOfCycles().check(classes);
    }
}
