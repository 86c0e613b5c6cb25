"""Whether a term is something to study: the filter every learning objective, key term, review question and glossary
entry passes.

Pure functions; thread-safe. The rules: docs/design/guide-writer.md.
"""

from __future__ import annotations

import re

__all__ = ["leans_on_context", "looks_like_code", "study_subject"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_POINTERS = {
    "en": _words(
        "it its this that these those they them their our ours my mine your yours his her hers we us you he she "
        "which what who whom such here there one ones"
    ),
    "pt": _words(
        "isto isso aquilo este esta estes estas esse essa esses essas aquele aquela aqueles aquelas ele ela eles "
        "elas nós você vocês seu sua seus suas meu minha meus minhas nosso nossa nossos nossas dele dela deles "
        "delas tal tais aqui ali lá algo alguém qual quais"
    ),
}
_GENERIC = {
    "en": _words(
        "figure figures table tables example examples case cases result results value values thing things part "
        "parts way ways item items point points list lists page pages chapter chapters section sections text "
        "document documents following answer answers question questions step steps end rest idea ideas insight "
        "option options setting settings default number numbers line lines output input problem problems "
        "solution solutions reason reasons fact facts kind kinds type types other others killer handler wrapper "
        "helper stuff code"
    ),
    "pt": _words(
        "figura figuras tabela tabelas exemplo exemplos caso casos resultado resultados valor valores coisa coisas "
        "parte partes forma formas maneira maneiras modo modos item itens ponto pontos lista listas página páginas "
        "capítulo capítulos seção seções secção secções texto documento documentos seguinte seguintes resposta "
        "respostas pergunta perguntas passo passos fim resto ideia ideias opção opções configuração padrão número "
        "números linha linhas saída entrada problema problemas solução soluções razão motivo fato facto tipo "
        "tipos outro outros outra outras código killer handler wrapper helper"
    ),
}
_LINKS = {
    "en": _words(
        "as of in on for with by to from at and or but if than like about into onto over under via per not "
        "normally usually also only just then so very"
    ),
    "pt": _words(
        "de do da dos das em no na nos nas por pelo pela pelos pelas para com sem como e ou mas que se ao aos à "
        "às num numa sobre entre até não normalmente geralmente também apenas só então muito"
    ),
}
_COMPOUND = {"en": _words("of"), "pt": _words("de do da dos das")}
"""Prepositions that join the nouns of one term ("sistema de arquivos"), so not a fragment inside it."""
_DEMONSTRATIVES = {
    "en": _words("this these those such"),
    "pt": _words("este esta estes estas esse essa esses essas isto isso aquele aquela aqueles aquelas tal tais"),
}
_CODE_TERM = re.compile(r"[_/\\$=:;(){}\[\]<>#@|`]|\.\w|^-|\s-{1,2}\w|\b[A-Z]+\s+[A-Z]{2,}\b")
"""A term with code's characters, a path or file name, an option, or two upper-case words in a row (``R CMD``)."""
_PACKAGE_TOOLS = r"(?:apt|apt-get|apt-cache|aptitude|dpkg|pip|npm|git)"
_COMMANDS = rf"(?:sudo|{_PACKAGE_TOOLS}|make|cd|ls|rm|cp|mv|chmod|chown|echo|cat|grep|curl|wget)"
_SUBCOMMANDS = (
    r"(?:install|reinstall|remove|purge|autoremove|update|upgrade|full-upgrade|dist-upgrade|safe-upgrade|search|show"
    r"|source|download|clean|autoclean|clone|commit|push|pull|checkout)"
)
_COMMAND_SHAPE = re.compile(
    rf"\b{_COMMANDS}\s+(?:-{{1,2}}[a-zA-Z]|[~.]{{0,2}}/|\*|[\w-]+\.[a-z]\w*\b)"
    rf"|\b{_PACKAGE_TOOLS}\s+{_SUBCOMMANDS}\b|\bsudo\s+[a-z]"
)
"""A command line anywhere: a command word followed by an option, a path, a wildcard or a file name (``rm -rf``,
``cd /etc``, ``cp templates.pot …``), a package tool and its subcommand (``apt-get install``), ``sudo`` and a
command. A command word followed by a plain word is prose ("make a list", "a git repository", "the cat")."""
_COMMAND_START = re.compile(rf"^{_COMMANDS}\s+[\w$~./*-]")
"""A sentence that starts with a command word in lower case and its argument (``cd work``, ``ls evince``)."""
_CODE_MARKS = re.compile(r"[`{}\\]|\w_\w|\w/\w+/|\w\.\w+\(|==|!=|:=|->|&&|\|\|")
"""In a sentence: code's characters, an identifier with underscores, a path, a call, an operator."""
_ADDRESS = re.compile(r"\bhttps?://\S+")
_CODE_SENTENCE = re.compile(r"(?:^|\s)(?:\$|#|>>>)\s+\S|\s--?[a-z][\w-]*|\w\(\)")


def _lists(language: str) -> str:
    return language if language in _POINTERS else "en"


def looks_like_code(sentence: str) -> bool:
    """Whether ``sentence`` is code or a command line (a prompt, an option, a command and its argument, code's
    characters); brackets and parentheses of prose are fine."""
    prose = _ADDRESS.sub("", sentence)
    return bool(
        _CODE_MARKS.search(prose)
        or _COMMAND_SHAPE.search(sentence)
        or _COMMAND_START.search(sentence)
        or _CODE_SENTENCE.search(prose)
    )


def study_subject(term: str, language: str) -> bool:
    """Whether ``term`` (without its article) names something to study (see docs/design/guide-writer.md)."""
    code = _lists(language)
    originals = [w.strip(".,;:!?\"'“”«»()") for w in term.split()]
    originals = [w for w in originals if w]
    words = [w.casefold() for w in originals]
    if not words or _CODE_TERM.search(term) or _COMMAND_SHAPE.search(term):
        return False
    if words[0] in _POINTERS[code] or any(w in _POINTERS[code] for w in words):
        return False
    inside = [w for w in words[1:-1] if w not in _COMPOUND[code]]
    if words[0] in _LINKS[code] or words[-1] in _LINKS[code] or any(w in _LINKS[code] for w in inside):
        return False
    generic = any(w in _GENERIC[code] for w in words)
    if generic and all(_filler(w, o, code) for w, o in zip(words, originals, strict=True)):
        return False  # "a resposta", "default value", "the most common example", "exemplo mais comum"
    return not (len(words) == 1 and len(words[0]) < 2)


def _filler(word: str, original: str, code: str) -> bool:
    """Whether ``word`` (``original`` as written) adds nothing to a generic word: another generic word, a short
    lower-case word, one of the vague adjectives."""
    return word in _GENERIC[code] or (len(word) <= 3 and original.islower()) or _adjective(word)


def _adjective(word: str) -> bool:
    """Whether ``word`` is one of the few adjectives that make a generic word no more specific."""
    return word in {"default", "short", "long", "new", "old", "first", "last", "same", "main", "good", "simple",
                    "most", "common", "usual", "typical", "whole", "several", "various", "different", "general",
                    "novo", "nova", "velho", "primeiro", "primeira", "último", "última", "mesmo", "mesma",
                    "principal", "simples", "bom", "boa", "curto", "curta", "longo", "longa", "mais", "comum",
                    "comuns", "típico", "típica", "vários", "várias", "diversos", "diversas", "geral"}  # fmt: skip


def leans_on_context(sentence: str, language: str) -> bool:
    """Whether ``sentence`` says what it says through a demonstrative ("para este grupo de pessoas"), so that
    alone, as an answer, it does not say which thing it means."""
    words = [w.strip(".,;:!?\"'“”«»()").casefold() for w in sentence.split()]
    demonstratives = _DEMONSTRATIVES[_lists(language)]
    for at, word in enumerate(words):
        if word in demonstratives and not (at + 1 < len(words) and words[at + 1] in words[:at]):
            return True
    return False
