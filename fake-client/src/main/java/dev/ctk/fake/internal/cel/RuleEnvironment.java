package dev.ctk.fake.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelSource;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.OptionalType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The CEL environment of CRD validation rules as kube 1.32 compiles new rules (its compatibility version 1.31):
 * standard macros and functions, homogeneous aggregate literals, cross-type numeric comparisons, optional types
 * ({@code self.?field}, {@code optional.of}), the extended strings library (without {@code format}, see the package
 * documentation), the sets library, kube's libraries ({@link KubeLibrary}) and literal checks
 * ({@link LiteralChecks}); variables {@code self} and {@code oldSelf} (or {@code optional(oldSelf)}) typed by the
 * node's schema.
 *
 * <p>One compiler and one runtime are built once per JVM; each rule node gets a compiler extended with its types.
 * Compile errors are printed as cel-go prints them ({@code ERROR: <input>:1:6: ...} with the source line and a
 * caret).
 */
final class RuleEnvironment {

  static final String SELF = "self";
  static final String OLD_SELF = "oldSelf";

  private static final CelOptions OPTIONS = CelOptions.current()
      .enableOptionalSyntax(true)
      .enableHeterogeneousNumericComparisons(true)
      .enableHomogeneousLiterals(true)
      .build();
  private static final Pattern CANDIDATES = Pattern.compile(" \\(candidates: .*\\)$", Pattern.DOTALL);
  private static final List<String> SYNTAX_ERRORS = List.of("mismatched input", "extraneous input",
      "no viable alternative", "missing ", "token recognition error");

  /** A compiled expression or the error text of its compilation. */
  record Compiled(CelAbstractSyntaxTree ast, String errors) {
  }

  private RuleEnvironment() {}

  private static final class Shared {
    static final CelStringExtensions STRINGS = CelExtensions.strings(
        CelStringExtensions.Function.CHAR_AT, CelStringExtensions.Function.INDEX_OF,
        CelStringExtensions.Function.JOIN, CelStringExtensions.Function.LAST_INDEX_OF,
        CelStringExtensions.Function.LOWER_ASCII, CelStringExtensions.Function.QUOTE,
        CelStringExtensions.Function.REPLACE, CelStringExtensions.Function.SPLIT,
        CelStringExtensions.Function.SUBSTRING, CelStringExtensions.Function.TRIM,
        CelStringExtensions.Function.UPPER_ASCII);
    static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
        .setOptions(OPTIONS)
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .addLibraries(CelExtensions.optional(), STRINGS, CelExtensions.sets(OPTIONS))
        .addFunctionDeclarations(KubeLibrary.declarations())
        .build();
    static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
        .setOptions(OPTIONS)
        .addLibraries(CelExtensions.optional(), STRINGS, CelExtensions.sets(OPTIONS))
        .addFunctionBindings(KubeLibrary.bindings())
        .build();
  }

  /** The runtime every program runs on. */
  static CelRuntime runtime() {
    return Shared.RUNTIME;
  }

  /**
   * A compiler for the rules of one node.
   *
   * @param self the node's type
   * @param optionalOldSelf whether {@code oldSelf} is {@code optional(T)} ({@code optionalOldSelf: true})
   */
  static CelCompiler compiler(CelTypes.Declared self, boolean optionalOldSelf) {
    return Shared.COMPILER.toCompilerBuilder()
        .setTypeProvider(self.provider())
        .addVar(SELF, self.type())
        .addVar(OLD_SELF, optionalOldSelf ? OptionalType.create(self.type()) : self.type())
        .build();
  }

  /** Parses, type-checks and runs the literal checks; on failure the issues as cel-go prints them. */
  static Compiled compile(CelCompiler compiler, String expression) {
    CelAbstractSyntaxTree ast;
    try {
      ast = compiler.compile(expression).getAst();
    } catch (CelValidationException e) {
      return new Compiled(null, issues(e.getErrors(), e.getSource()));
    }
    CelValidator validator = CelValidatorFactory.standardCelValidatorBuilder(compiler, Shared.RUNTIME)
        .addAstValidators(LiteralChecks.INSTANCE)
        .build();
    CelValidationResult checked = validator.validate(ast);
    if (checked.hasError()) {
      return new Compiled(null, issues(checked.getErrors(), checked.getSource()));
    }
    return new Compiled(ast, null);
  }

  /** cel-go's texts: no overload candidates listed, parser errors prefixed with {@code Syntax error: }. */
  private static String issues(List<CelIssue> issues, CelSource source) {
    List<CelIssue> rewritten = new ArrayList<>();
    for (CelIssue issue : issues) {
      String message = CANDIDATES.matcher(issue.getMessage()).replaceFirst("");
      if (SYNTAX_ERRORS.stream().anyMatch(message::startsWith)) {
        message = "Syntax error: " + message;
      }
      rewritten.add(CelIssue.newBuilder().setSeverity(issue.getSeverity())
          .setSourceLocation(issue.getSourceLocation()).setExprId(issue.getExprId()).setMessage(message).build());
    }
    return CelIssue.toDisplayString(rewritten, source);
  }
}
