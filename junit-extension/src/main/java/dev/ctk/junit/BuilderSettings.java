package dev.ctk.junit;

import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.PerturbationConfig;
import dev.ctk.harness.internal.realserver.ResourceLocation;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * What a {@link ControllerTestExtension.Builder} was given, frozen by {@code build()}.
 *
 * @param mode the mode, or {@code null} to resolve it from {@code @AcrossModes} or configuration
 * @param isolation the isolation, or {@code null} to resolve it from configuration
 * @param crds CRD files
 * @param resources object files
 * @param crdObjects CRDs (already copied)
 * @param objects objects (already copied)
 * @param customizer the last step applied to every cluster builder
 * @param virtualTime whether every cluster gets a fresh {@code VirtualTime} ({@code withVirtualTime()})
 * @param perturbations the perturbation settings of every test ({@code withPerturbations(..)}), or {@code null}
 */
record BuilderSettings(Mode mode, Isolation isolation, List<ResourceLocation> crds,
    List<ResourceLocation> resources, List<CustomResourceDefinition> crdObjects,
    List<HasMetadata> objects, UnaryOperator<FakeCluster.Builder> customizer,
    boolean virtualTime, PerturbationConfig perturbations) {

  BuilderSettings {
    crds = List.copyOf(crds);
    resources = List.copyOf(resources);
    crdObjects = List.copyOf(crdObjects);
    objects = List.copyOf(objects);
  }
}
