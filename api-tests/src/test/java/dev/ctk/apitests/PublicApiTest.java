package dev.ctk.apitests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.clientjava.ClientJavaProbe;
import dev.ctk.controller.Controller;
import dev.ctk.envtest.ApiServer;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.josdk.OperatorProbe;
import dev.ctk.junit.ControllerTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fence around every published module: a public signature names only the JDK, ctk's public packages and the
 * third-party types the module is about; no module below {@code ctk-junit} uses JUnit; no internal package uses its
 * own module's public packages except the one that holds what both share ({@code values}); and every change of a public
 * API shows in review as a change of {@code src/test/resources/api/<artifact>.api} (regenerate with {@code
 * -Dctk.api.update=true} and commit the diff).
 */
class PublicApiTest {

  static final Path SNAPSHOTS = Path.of("src/test/resources/api");

  static final String FABRIC8 = "io.fabric8.kubernetes.";

  static Stream<PublishedModule> modules() {
    return Stream.of(
        new PublishedModule("ctk-controller", Controller.class, List.of(FABRIC8)),
        new PublishedModule("ctk-fake-client", FakeCluster.class, List.of(FABRIC8)),
        new PublishedModule("ctk-envtest", ApiServer.class, List.of(FABRIC8)),
        new PublishedModule("ctk-harness", ControllerHarness.class, List.of(FABRIC8, "org.assertj.core.")),
        new PublishedModule("ctk-junit", ControllerTest.class, List.of(FABRIC8, "org.junit.jupiter.api.")),
        new PublishedModule("ctk-josdk", OperatorProbe.class, List.of(FABRIC8, "io.javaoperatorsdk.operator.")),
        new PublishedModule("ctk-client-java", ClientJavaProbe.class, List.of(FABRIC8, "io.kubernetes.client.")));
  }

  @ParameterizedTest
  @MethodSource("modules")
  void should_name_no_internal_or_unexpected_type_in_a_public_signature(PublishedModule module) {
    // WHEN
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : module.publicTypes()) {
      for (String line : PublishedModule.signatures(type)) {
        for (String named : PublishedModule.named(line)) {
          String problem = module.problem(named);
          if (problem != null) {
            leaks.add(line + "\n      names " + named + ": " + problem);
          }
        }
      }
    }
    // THEN
    assertThat(leaks).as("public signatures of " + module + " that name a type users should not see: make the type "
        + "public API (or allow its library here, if the module is about it), or keep it out of the signature")
        .isEmpty();
  }

  @ParameterizedTest
  @MethodSource("modules")
  void should_match_the_committed_public_api_snapshot(PublishedModule module) throws IOException {
    // GIVEN
    Path snapshot = SNAPSHOTS.resolve(module.artifact() + ".api");
    String current = module.publicTypes().stream().flatMap(t -> PublishedModule.signatures(t).stream())
        .collect(Collectors.joining("\n", "", "\n"));
    // WHEN
    if (Boolean.getBoolean("ctk.api.update")) {
      Files.createDirectories(SNAPSHOTS);
      Files.writeString(snapshot, current, StandardCharsets.UTF_8);
    }
    // THEN
    assertThat(snapshot).as("the API snapshot of " + module + "; create it with -Dctk.api.update=true").exists();
    assertThat(current).as("the public API of " + module + " changed; if that is meant, run ./mvnw -pl api-tests "
        + "verify -Dctk.api.update=true and commit " + snapshot)
        .isEqualTo(Files.readString(snapshot, StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @MethodSource("modules")
  void should_use_junit_only_in_the_junit_adapter(PublishedModule module) {
    // GIVEN
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    StringWriter out = new StringWriter();
    // WHEN
    int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none",
        module.location().toString());
    // THEN
    assertThat(exit).as(out.toString()).isZero();
    List<String> junit = out.toString().lines().filter(l -> l.contains("-> org.junit")).collect(Collectors.toList());
    if (module.artifact().equals("ctk-junit")) {
      assertThat(junit).as("ctk-junit is the JUnit adapter").isNotEmpty();
    } else {
      assertThat(junit).as("classes of " + module + " that use JUnit: only ctk-junit may").isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("modules")
  void should_keep_internal_packages_off_their_modules_public_packages(PublishedModule module) {
    // GIVEN
    Set<String> publicPackages = module.classNames().stream().filter(n -> !PublishedModule.isInternal(n))
        .map(n -> n.substring(0, n.lastIndexOf('.'))).collect(Collectors.toCollection(TreeSet::new));
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    StringWriter out = new StringWriter();
    // WHEN
    int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none",
        module.location().toString());
    // THEN
    assertThat(exit).as(out.toString()).isZero();
    Set<String> uses = new TreeSet<>();
    for (String line : out.toString().lines().toList()) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length >= 3 && parts[1].equals("->") && PublishedModule.isInternal(parts[0])) {
        String used = parts[2].contains("$") ? parts[2].substring(0, parts[2].indexOf('$')) : parts[2];
        String usedPackage = used.substring(0, used.lastIndexOf('.'));
        if (publicPackages.contains(usedPackage) && !usedPackage.endsWith(".values")) {
          uses.add(parts[0] + " -> " + used);
        }
      }
    }
    assertThat(uses).as("internal classes of " + module + " that use a public type of their own module: move what "
        + "both sides need into the module's values package, or pass it in as an internal type").isEmpty();
  }
}
