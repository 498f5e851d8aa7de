package dev.wharf.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The client's own layering: no cycles among its packages, and the base package depends on none of them. */
class ClientPackageRulesTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.wharf.client");
    }

    @Test
    void noCyclesAmongClientPackages() {
        slices().matching("dev.wharf.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theBasePackageIsTheBottomLayer() {
        noClasses().that().resideInAPackage("dev.wharf.client")
                .should().dependOnClassesThat().resideInAPackage("dev.wharf.client.(*)..")
                .check(classes);
    }

    @Test
    void routeStateDoesNoIo() {
        noClasses().that().resideInAPackage("dev.wharf.client.route..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.wharf.remoting..", "dev.wharf.client.impl..",
                        "io.netty..")
                .check(classes);
    }

    @Test
    void theEngineDoesNotKnowThePublicConsumerTypes() {
        noClasses().that().resideInAnyPackage("dev.wharf.client.consumer.push..", "dev.wharf.client.consumer.offset..")
                .should().dependOnClassesThat().resideInAPackage("dev.wharf.client.consumer")
                .check(classes);
    }
}
