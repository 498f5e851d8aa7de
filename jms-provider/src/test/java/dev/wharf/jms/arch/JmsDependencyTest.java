package dev.wharf.jms.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.store.MessageStoreConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provider talks to Wharf through the client, the protocol, the common model and the selector engine only;
 * one class, the in-JVM broker registry, may also start an embedded server and set its broker's settings (the
 * configuration beans of the broker, the store and the listener), but reaches no broker, NameServer or store
 * internals.
 */
class JmsDependencyTest {

    private static final String VM_REGISTRY = "dev.wharf.jms.vm.VmBrokerRegistry";

    private static final DescribedPredicate<JavaClass> VM_REGISTRY_OR_NESTED =
            DescribedPredicate.describe("the vm:// broker registry",
                    c -> c.getName().equals(VM_REGISTRY) || c.getName().startsWith(VM_REGISTRY + "$"));

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.wharf.jms");
    }

    @Test
    void theProviderUsesOnlyTheClientSideOfWharf() {
        classes().that().resideInAPackage("dev.wharf.jms..").and(DescribedPredicate.not(VM_REGISTRY_OR_NESTED))
                .should().onlyDependOnClassesThat(resideOutsideOfPackage("dev.wharf..").or(resideInAnyPackage(
                        "dev.wharf.jms..", "dev.wharf.client..", "dev.wharf.protocol..", "dev.wharf.common..",
                        "dev.wharf.filter..")))
                .check(classes);
    }

    @Test
    void onlyTheVmRegistryMayStartABroker() {
        classes().that(VM_REGISTRY_OR_NESTED)
                .should().onlyDependOnClassesThat(resideOutsideOfPackage("dev.wharf..").or(resideInAnyPackage(
                        "dev.wharf.jms..", "dev.wharf.client..", "dev.wharf.protocol..", "dev.wharf.common..",
                        "dev.wharf.filter..", "dev.wharf.embedded..", "dev.wharf.broker.config..")).or(
                        JavaClass.Predicates.belongToAnyOf(MessageStoreConfig.class, NettyServerConfig.class)))
                .check(classes);
    }

    @Test
    void theMessageModelKnowsNothingOfConnectionsOrNaming() {
        noClasses().that().resideInAPackage("dev.wharf.jms.message..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.wharf.jms", "dev.wharf.jms.config..",
                        "dev.wharf.jms.jndi..", "dev.wharf.jms.vm..")
                .check(classes);
        noClasses().that().resideInAPackage("dev.wharf.jms.destination..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.wharf.jms", "dev.wharf.jms.message..",
                        "dev.wharf.jms.config..", "dev.wharf.jms.jndi..", "dev.wharf.jms.vm..")
                .check(classes);
    }

    @Test
    void noCyclesBetweenTheProvidersPackages() {
        slices().matching("dev.wharf.jms.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theRuleHasSomethingToCheck() {
        org.assertj.core.api.Assertions.assertThat(classes.contain(VM_REGISTRY)).isTrue();
        org.assertj.core.api.Assertions.assertThat(classes.contain("dev.wharf.jms.WharfConnectionFactory")).isTrue();
    }
}
