package dev.ctk.fake.internal.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.ExprKind.Kind;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.ctk.fake.internal.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compiles the {@code x-kubernetes-validations} of one schema node as kube's {@code cel.Compile} does: each rule must
 * type-check to {@code bool} and each {@code messageExpression} to {@code string}, with kube's error details
 * ({@code compilation failed: ...}, {@code cel expression must evaluate to a bool}, {@code messageExpression
 * compilation failed: ...}, {@code messageExpression must evaluate to a string}, {@code program instantiation
 * failed: ...} for a constant regex of {@code find}/{@code findAll} that does not compile).
 */
final class RuleCompiler {

  /** The compiled rules of one node, or why none could be compiled. */
  record NodeRules(List<CompiledRule> rules, String typeError) {
    static final NodeRules NONE = new NodeRules(List.of(), null);
  }

  static final String NO_TYPE = "failed to convert to declType for CEL validation rules";

  private RuleCompiler() {}

  static NodeRules compile(Schema node, boolean resourceRoot) {
    JsonNode raw = node.validationRules();
    if (raw.isEmpty()) {
      return NodeRules.NONE;
    }
    CelTypes.Declared self = CelTypes.of(node, resourceRoot);
    if (self == null) {
      return new NodeRules(List.of(), NO_TYPE);
    }
    CelCompiler plain = null;
    CelCompiler optional = null;
    List<CompiledRule> out = new ArrayList<>();
    for (JsonNode entry : raw) {
      ValidationRule rule = ValidationRule.of(entry);
      CelCompiler compiler;
      if (rule.optional()) {
        optional = optional != null ? optional : RuleEnvironment.compiler(self, true);
        compiler = optional;
      } else {
        plain = plain != null ? plain : RuleEnvironment.compiler(self, false);
        compiler = plain;
      }
      out.add(compile(rule, compiler, node));
    }
    return new NodeRules(List.copyOf(out), null);
  }

  private static CompiledRule compile(ValidationRule rule, CelCompiler compiler, Schema node) {
    if (rule.rule().isBlank()) {
      return new CompiledRule(rule, null, false, null, "", null, null);
    }
    RuleEnvironment.Compiled compiled = RuleEnvironment.compile(compiler, rule.rule());
    if (compiled.ast() == null) {
      return failed(rule, "compilation failed: " + compiled.errors());
    }
    CelAbstractSyntaxTree ast = compiled.ast();
    if (!ast.getResultType().equals(SimpleType.BOOL)) {
      return failed(rule, "cel expression must evaluate to a bool");
    }
    boolean usesOldSelf = ast.getReferenceMap().values().stream()
        .anyMatch(ref -> ref.name().equals(RuleEnvironment.OLD_SELF));
    Optional<String> badRegex = constantRegexError(ast);
    if (badRegex.isPresent()) {
      return new CompiledRule(rule, null, usesOldSelf, null, "", "program instantiation failed: "
          + badRegex.get(), null);
    }
    CelRuntime.Program program = program(ast);
    String fieldPath = rule.fieldPath().isEmpty() ? "" : orEmpty(FieldPaths.normalize(rule.fieldPath(), node));
    if (rule.messageExpression().isEmpty()) {
      return new CompiledRule(rule, program, usesOldSelf, null, fieldPath, null, null);
    }
    RuleEnvironment.Compiled message = RuleEnvironment.compile(compiler, rule.messageExpression());
    if (message.ast() == null) {
      return new CompiledRule(rule, program, usesOldSelf, null, fieldPath, null,
          "messageExpression compilation failed: " + message.errors());
    }
    if (!message.ast().getResultType().equals(SimpleType.STRING)) {
      return new CompiledRule(rule, program, usesOldSelf, null, fieldPath, null,
          "messageExpression must evaluate to a string");
    }
    return new CompiledRule(rule, program, usesOldSelf, program(message.ast()), fieldPath, null, null);
  }

  private static CompiledRule failed(ValidationRule rule, String error) {
    return new CompiledRule(rule, null, false, null, "", error, null);
  }

  private static CelRuntime.Program program(CelAbstractSyntaxTree ast) {
    try {
      return RuleEnvironment.runtime().createProgram(ast);
    } catch (CelEvaluationException e) {
      throw new IllegalStateException("cel-java refused a checked expression: " + e.getMessage(), e);
    }
  }

  /** kube compiles a constant regex of {@code find}/{@code findAll} when it builds the program. */
  private static Optional<String> constantRegexError(CelAbstractSyntaxTree ast) {
    return CelNavigableAst.fromAst(ast).getRoot().allNodes()
        .filter(node -> node.expr().exprKind().getKind() == Kind.CALL)
        .map(node -> node.expr().call())
        .filter(call -> (call.function().equals("find") || call.function().equals("findAll"))
            && call.target().isPresent() && !call.args().isEmpty())
        .map(call -> call.args().get(0))
        .filter(arg -> arg.exprKind().getKind() == Kind.CONSTANT
            && arg.constant().getKind() == CelConstant.Kind.STRING_VALUE)
        .map(CelExpr::constant)
        .map(constant -> regexError(constant.stringValue()))
        .filter(Optional::isPresent)
        .map(Optional::get)
        .findFirst();
  }

  private static Optional<String> regexError(String regex) {
    try {
      Pattern.compile(regex);
      return Optional.empty();
    } catch (PatternSyntaxException e) {
      return Optional.of(e.getMessage());
    }
  }

  private static String orEmpty(String text) {
    return text == null ? "" : text;
  }
}
