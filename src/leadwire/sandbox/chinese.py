"""Simplified-to-traditional Chinese conversion for the characters the sandbox generator writes
(Taiwan and Hong Kong texts use traditional characters)."""

from __future__ import annotations

# generated once with OpenCC's s2tw table over the generator's own vocabulary; words first where one
# simplified character has several traditional forms
_WORDS = {
    "回复": "回覆",
    "分钟": "分鐘",
    "重复": "重複",
    "钟表": "鐘錶",
    "周年": "週年",
    "发布": "發佈",
    "制造": "製造",
    "制药": "製藥",
    "家具": "傢俱",
    "宣布": "宣佈",
    "公布": "公佈",
    "周日": "週日",
    "周末": "週末",
    "上周": "上週",
    "两周": "兩週",
    "整周": "整週",
    "每周": "每週",
}
_SIMPLIFIED = (
    "万与专业东两个丰为丽么买于云产亿从仓仪们价优会伟传体储关兴内军农冯决准减几凭凯击划刘则刚创办务动劳医华协单占却厂历参双发"
    "变叶后听启吴员咨响团园国场处备复奖妆孙学宁宝实审对寻导寿将属岗师带并广应开张强归当录总恒愿战户托执扩扫护报担拥择据摊数断"
    "旧时显晓术机杀条来杨杰标检欢气没测涂涛润湾滚滞满灵点环现电疗监盘着矿码碍离税稳签类紧约级纪纺线练织终经结给络统绩续维缩网"
    "罗职联脑艰艳艺节苏荐荣药获营虽补装见观规觉触计认让训议许设访证识诊试话询说请读调谢负财责账货质购贸费贺资赚赵车转轮软辉输"
    "达迁过运还这进远迹选递邓邮郑采里钓钟钢铁铝银链销长问闲间阅队陈险隐难雇静韧韩页项顺顾预领题风飞饮饰馈马驱骄验鱼鹏黄龙"
)
_TRADITIONAL = (
    "萬與專業東兩個豐為麗麼買於雲產億從倉儀們價優會偉傳體儲關興內軍農馮決準減幾憑凱擊劃劉則剛創辦務動勞醫華協單佔卻廠歷參雙發"
    "變葉後聽啟吳員諮響團園國場處備復獎妝孫學寧寶實審對尋導壽將屬崗師帶並廣應開張強歸當錄總恆願戰戶託執擴掃護報擔擁擇據攤數斷"
    "舊時顯曉術機殺條來楊傑標檢歡氣沒測塗濤潤灣滾滯滿靈點環現電療監盤著礦碼礙離稅穩籤類緊約級紀紡線練織終經結給絡統績續維縮網"
    "羅職聯腦艱豔藝節蘇薦榮藥獲營雖補裝見觀規覺觸計認讓訓議許設訪證識診試話詢說請讀調謝負財責賬貨質購貿費賀資賺趙車轉輪軟輝輸"
    "達遷過運還這進遠跡選遞鄧郵鄭採裡釣鍾鋼鐵鋁銀鏈銷長問閒間閱隊陳險隱難僱靜韌韓頁項順顧預領題風飛飲飾饋馬驅驕驗魚鵬黃龍"
)
_TABLE = str.maketrans(_SIMPLIFIED, _TRADITIONAL)


def to_traditional(text: str) -> str:
    """`text` with the generator's simplified characters replaced by their traditional forms."""
    for simplified, traditional in _WORDS.items():
        text = text.replace(simplified, traditional)
    return text.translate(_TABLE)
